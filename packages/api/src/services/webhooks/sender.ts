import http from 'node:http';
import https from 'node:https';
import { openSecret, sql, type Db } from '@lampstand/db';
import {
  OutboundError,
  UNREACHABLE_MESSAGE,
  outboundFetch,
  type OutboundReach,
} from '../../providers/outbound-http.js';
import { afterDelays, claimLeased, finishLeasedMany, type Lease, type LeasedTable } from '../background/claim.js';
import { toEventOut } from '../events/list.js';
import { webhookHeaders } from './signing.js';

/** After the first try fails, the next ones wait this long each: about 3 days in all. */
export const RETRY_DELAYS_MS = [5, 300, 1800, 7200, 18_000, ...new Array<number>(7).fill(36_000)].map((s) => s * 1000);
/** An endpoint failing this long (no 2xx meanwhile) is turned off and its church told. */
export const FAILURE_WINDOW_MS = 3 * 24 * 3600 * 1000;
/** What a delivery log keeps of an answer. */
const EXCERPT_BYTES = 1024;

export interface SenderOptions {
  reach: OutboundReach;
  /** For one try, connection to last byte (default 15 s). */
  timeoutMs: number;
  /** A claimed delivery not finished in this time belongs to a dead worker: it is due again. */
  leaseSeconds: number;
  retryDelaysMs: readonly number[];
  failureWindowMs: number;
  agents: { http: http.Agent; https: https.Agent };
}

export const defaultSenderOptions = (): SenderOptions => ({
  reach: 'public',
  timeoutMs: 15_000,
  leaseSeconds: 60,
  retryDelaysMs: RETRY_DELAYS_MS,
  failureWindowMs: FAILURE_WINDOW_MS,
  agents: {
    http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
  },
});

/** Webhook deliveries as the claim primitive reads them: a lease's end, the try, the next try's time. */
const WEBHOOK_LEASES: LeasedTable = {
  table: 'webhook_deliveries',
  lease: 'lease_until',
  holds: 'until',
  attempts: 'attempts',
  retryAt: 'next_attempt_at',
};

/** A delivery claimed for one try, with what the request needs. */
export interface ClaimedDelivery {
  id: number;
  endpointId: number;
  /** The claim (its try is `lease.attempt`): the result is written only while it still holds. */
  lease: Lease;
  messageId: string;
  url: string;
  secrets: string[];
  /** The signed body; null when its event is gone (deleted by retention). */
  body: string | null;
}

export interface TryResult {
  id: number;
  endpointId: number;
  lease: Lease;
  ok: boolean;
  gone: boolean;
  status: number | null;
  durationMs: number;
  excerpt: string;
}

/**
 * Claims up to `limit` due deliveries of endpoints that are on (the claim primitive: workers never
 * take the same one), as one more attempt each; the claim is a lease: the delivery is due again
 * after `leaseSeconds` unless its result is recorded first (a worker that dies mid-try). It changes
 * no indexed column, so the row is updated in place (HOT) without new index entries.
 */
export async function claimDeliveries(
  db: Db,
  limit: number,
  leaseSeconds: number,
  /** Deliveries the caller holds (in flight, or their results not yet written): never claimed again by it. */
  held: readonly number[] = [],
): Promise<ClaimedDelivery[]> {
  const claimed = await claimLeased<{
    endpointId: number;
    eventId: number | null;
    type: string;
    payload: Record<string, unknown> | null;
    messageId: string;
    createdAt: Date;
  }>(db, WEBHOOK_LEASES, {
    join: sql`join webhook_endpoints w on w.id = x.endpoint_id and w.disabled_at is null`,
    due: sql`x.status = 'pending' and x.next_attempt_at <= now()`,
    order: sql`x.next_attempt_at`,
    limit,
    leaseSeconds,
    held,
    set: sql`last_attempt_at = now()`,
  });
  const rows = claimed.map((c) => ({ ...c.row, lease: c.lease }));
  if (rows.length === 0) return [];
  const eventIds = rows.flatMap((r) => (r.eventId === null ? [] : [r.eventId]));
  const endpointIds = [...new Set(rows.map((r) => r.endpointId))];
  const [events, endpoints] = await Promise.all([
    eventIds.length
      ? db
          .selectFrom('events')
          .select(['id', 'type', 'version', 'occurredAt', 'contactId', 'actorKind', 'actorId', 'payload'])
          .where('id', 'in', eventIds)
          .execute()
      : [],
    db
      .selectFrom('webhookEndpoints')
      .select(['id', 'url', 'secret', 'previousSecret', 'previousSecretUntil'])
      .where('id', 'in', endpointIds)
      .execute(),
  ]);
  const eventById = new Map(events.map((e) => [e.id, e]));
  const endpointById = new Map(endpoints.map((e) => [e.id, e]));
  const now = new Date();
  return rows.map((r) => {
    const ep = endpointById.get(r.endpointId)!;
    const secrets = [openSecret(ep.secret)];
    if (ep.previousSecret && ep.previousSecretUntil && ep.previousSecretUntil > now) {
      secrets.push(openSecret(ep.previousSecret));
    }
    const event = r.eventId === null ? null : eventById.get(r.eventId);
    let body: string | null = null;
    if (event) {
      body = JSON.stringify({ type: r.type, timestamp: event.occurredAt.toISOString(), data: toEventOut(event) });
    } else if (r.eventId === null) {
      body = JSON.stringify({ type: r.type, timestamp: r.createdAt.toISOString(), data: r.payload ?? {} });
    }
    return {
      id: r.lease.id,
      endpointId: r.endpointId,
      lease: r.lease,
      messageId: r.messageId,
      url: ep.url,
      secrets,
      body,
    };
  });
}

/** One try: a signed POST through the guarded outbound client. Never throws. */
export async function tryDelivery(d: ClaimedDelivery, opts: SenderOptions): Promise<TryResult> {
  const start = performance.now();
  const result = (r: Pick<TryResult, 'ok' | 'gone' | 'status' | 'excerpt'>): TryResult => ({
    id: d.id,
    endpointId: d.endpointId,
    lease: d.lease,
    durationMs: Math.round(performance.now() - start),
    ...r,
  });
  if (d.body === null) return result({ ok: false, gone: false, status: null, excerpt: 'The event no longer exists' });
  const headers = webhookHeaders(d.secrets, {
    id: d.messageId,
    timestamp: Math.floor(Date.now() / 1000),
    body: d.body,
  });
  try {
    const res = await outboundFetch(d.url, {
      method: 'POST',
      body: d.body,
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'Lampstand-Webhooks/1.0' },
      reach: opts.reach,
      timeoutMs: opts.timeoutMs,
      maxBytes: 256 * 1024,
      // A redirect is an answer, not followed: the signature was made for this URL's receiver.
      maxRedirects: 0,
      agents: opts.agents,
    });
    const ok = res.status >= 200 && res.status < 300;
    return result({
      ok,
      gone: res.status === 410,
      status: res.status,
      excerpt: res.body
        .subarray(0, EXCERPT_BYTES)
        .toString('utf8')
        .replace(/\uFFFD$/, ''),
    });
  } catch (err) {
    const timeout = err instanceof OutboundError && err.failure === 'timeout';
    const excerpt = timeout ? `No answer within ${Math.round(opts.timeoutMs / 1000)} seconds` : UNREACHABLE_MESSAGE;
    return result({ ok: false, gone: false, status: null, excerpt });
  }
}

/** An endpoint turned off after 3 days of failures, for the email to its church. */
export interface FailingEndpoint {
  id: number;
  userId: number;
  url: string;
}

/**
 * Writes the tries' results in one statement: delivered, due again after the schedule's next wait,
 * or failed for good when the schedule is over. Then the endpoints: a 2xx ends a failure streak, a
 * 410 turns the endpoint off, and a failure 3 days into a streak turns it off too (returned).
 */
export async function recordResults(
  db: Db,
  results: readonly TryResult[],
  opts: SenderOptions,
): Promise<FailingEndpoint[]> {
  if (results.length === 0) return [];
  const now = Date.now();
  const backoff = afterDelays(opts.retryDelaysMs);
  const waits = results.map((r) => (r.ok ? 0 : backoff(r.lease.attempt)));
  // Written only while each try is still its delivery's latest: a try whose lease ran out and was
  // claimed again by another worker has its result dropped.
  await finishLeasedMany(
    db,
    WEBHOOK_LEASES,
    results.map((r) => r.lease),
    {
      values: {
        status: {
          type: 'text',
          of: results.map((r, i) => (r.ok ? 'delivered' : waits[i] === null ? 'failed' : 'pending')),
        },
        next: { type: 'timestamptz', of: waits.map((w) => new Date(now + (w ?? 0)).toISOString()) },
        code: { type: 'int', of: results.map((r) => r.status) },
        ms: { type: 'int', of: results.map((r) => r.durationMs) },
        excerpt: { type: 'text', of: results.map((r) => r.excerpt) },
      },
      set: sql`status = v.status, next_attempt_at = v.next, response_status = v.code, duration_ms = v.ms,
               response_excerpt = v.excerpt,
               delivered_at = case when v.status = 'delivered' then now() else t.delivered_at end`,
    },
  );
  const succeeded = new Set(results.filter((r) => r.ok).map((r) => r.endpointId));
  const gone = [...new Set(results.filter((r) => r.gone).map((r) => r.endpointId))];
  const failed = [
    ...new Set(results.filter((r) => !r.ok && !r.gone && !succeeded.has(r.endpointId)).map((r) => r.endpointId)),
  ];
  if (succeeded.size) {
    await db
      .updateTable('webhookEndpoints')
      .set({ failingSince: null })
      .where('id', 'in', [...succeeded])
      .where('failingSince', 'is not', null)
      .execute();
  }
  if (gone.length) {
    await db
      .updateTable('webhookEndpoints')
      .set({ disabledAt: new Date(), disabledReason: 'gone' })
      .where('id', 'in', gone)
      .where('disabledAt', 'is', null)
      .execute();
  }
  if (failed.length === 0) return [];
  await db
    .updateTable('webhookEndpoints')
    .set({ failingSince: sql`coalesce(failing_since, now())` })
    .where('id', 'in', failed)
    .execute();
  return db
    .updateTable('webhookEndpoints')
    .set({ disabledAt: new Date(), disabledReason: 'failing' })
    .where('id', 'in', failed)
    .where('disabledAt', 'is', null)
    .where('failingSince', '<=', new Date(now - opts.failureWindowMs))
    .returning(['id', 'userId', 'url'])
    .execute();
}
