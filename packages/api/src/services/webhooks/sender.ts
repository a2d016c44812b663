import http from 'node:http';
import https from 'node:https';
import { openSecret, sql, type Db } from '@lampstand/db';
import {
  OutboundError,
  UNREACHABLE_MESSAGE,
  outboundFetch,
  type OutboundReach,
} from '../../providers/outbound-http.js';
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

/** A delivery claimed for one try, with what the request needs. */
export interface ClaimedDelivery {
  id: number;
  endpointId: number;
  attempt: number;
  messageId: string;
  url: string;
  secrets: string[];
  /** The signed body; null when its event is gone (deleted by retention). */
  body: string | null;
}

export interface TryResult {
  id: number;
  endpointId: number;
  attempt: number;
  ok: boolean;
  gone: boolean;
  status: number | null;
  durationMs: number;
  excerpt: string;
}

/**
 * Claims up to `limit` due deliveries of endpoints that are on (`for update skip locked`: workers
 * never take the same one), as one more attempt each; the claim is a lease: the delivery is due
 * again after `leaseSeconds` unless its result is recorded first (a worker that dies mid-try). It
 * changes no indexed column, so the row is updated in place (HOT) without new index entries.
 */
export async function claimDeliveries(
  db: Db,
  limit: number,
  leaseSeconds: number,
  /** Deliveries the caller holds (in flight, or their results not yet written): never claimed again by it. */
  held: readonly number[] = [],
): Promise<ClaimedDelivery[]> {
  const { rows } = await sql<{
    id: number;
    endpointId: number;
    eventId: number | null;
    type: string;
    payload: Record<string, unknown> | null;
    messageId: string;
    attempts: number;
    createdAt: Date;
  }>`
    update webhook_deliveries d
    set attempts = d.attempts + 1, last_attempt_at = now(),
        lease_until = now() + make_interval(secs => ${leaseSeconds})
    from (
      select x.id from webhook_deliveries x
      join webhook_endpoints w on w.id = x.endpoint_id and w.disabled_at is null
      where x.status = 'pending' and x.next_attempt_at <= now() and (x.lease_until is null or x.lease_until < now())
        and x.id <> all(${held}::bigint[])
      order by x.next_attempt_at limit ${limit}
      for update of x skip locked
    ) due
    where d.id = due.id
    returning d.id, d.endpoint_id, d.event_id, d.type, d.payload, d.message_id, d.attempts, d.created_at`.execute(db);
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
      id: r.id,
      endpointId: r.endpointId,
      attempt: r.attempts,
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
    attempt: d.attempt,
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
  const status = results.map((r) =>
    r.ok ? 'delivered' : r.attempt > opts.retryDelaysMs.length ? 'failed' : 'pending',
  );
  const next = results.map((r) =>
    new Date(
      r.ok ? now : now + (opts.retryDelaysMs[Math.min(r.attempt, opts.retryDelaysMs.length) - 1] ?? 0),
    ).toISOString(),
  );
  await sql`
    update webhook_deliveries d
    set status = r.status, next_attempt_at = r.next, lease_until = null, response_status = r.code, duration_ms = r.ms,
        response_excerpt = r.excerpt, delivered_at = case when r.status = 'delivered' then now() else d.delivered_at end
    from unnest(${results.map((r) => r.id)}::bigint[], ${status}::text[], ${next}::timestamptz[],
                ${results.map((r) => r.status)}::int[], ${results.map((r) => r.durationMs)}::int[],
                ${results.map((r) => r.excerpt)}::text[], ${results.map((r) => r.attempt)}::int[])
           as r(id, status, next, code, ms, excerpt, attempt)
    -- A try whose lease ran out and was claimed again is no longer the delivery's latest: its result is dropped.
    where d.id = r.id and d.attempts = r.attempt`.execute(db);
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
