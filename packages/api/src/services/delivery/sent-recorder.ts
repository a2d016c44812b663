import { performance } from 'node:perf_hooks';
import { sql, type Db } from '@lampstand/db';
import type { NewEvent } from '../../schemas/events.js';
import { finishLeasedMany, type Lease } from '../background/claim.js';
import { actingAs, SYSTEM_ACTOR } from '../events/actor.js';
import { recordEvents } from '../events/record.js';
import { DELIVERY_LEASES, asyncCommit, leaseOf, type Delivery } from './leases.js';

/**
 * Accepted deliveries are marked sent in batches, group-commit style, one recorder per process
 * (per `db`) shared by every delivery job in it: a write takes everything accepted in the
 * `RECORD_LINGER_MS` since the oldest of them (or `RECORD_BATCH` rows, when that many come first),
 * and what is accepted while it runs waits for the next. Without the linger, a worker sending
 * about a thousand messages a second wrote one transaction (an event insert, a notification, a
 * commit) for every one or two messages, since each write found only what arrived
 * during the one before: 60,000 transactions for 100,000 messages, most of PostgreSQL's work per
 * message (`pnpm bench:journeys`, docs/benchmarks.md). A message thus waits at most the linger
 * plus about two round trips between the provider's acceptance and its record (the window in
 * which a crash resends it). Fenced by the claim: a delivery another worker took over is left to it.
 */
const RECORD_LINGER_MS = 25;
const RECORD_BATCH = 500;

const recorders = new WeakMap<Db, SentRecorder>();

export interface SentRecorder {
  /** Resolves true once marked sent, false when the claim was no longer ours; rejects on a database error. */
  add(delivery: Delivery, providerMessageId: string, event: NewEvent): Promise<boolean>;
}

export function sentRecorder(db: Db): SentRecorder {
  const existing = recorders.get(db);
  if (existing) return existing;
  interface Row {
    delivery: Delivery;
    /** The claim as it was when the provider accepted the message: the fence of the sent mark. */
    lease: Lease;
    providerMessageId: string;
    event: NewEvent;
    /** performance.now() when it was accepted. */
    at: number;
    done: (recorded: boolean) => void;
    fail: (err: unknown) => void;
  }
  const pending: Row[] = [];
  let busy = false;
  const drain = async () => {
    while (pending.length > 0) {
      const linger = RECORD_LINGER_MS - (performance.now() - pending[0]!.at);
      if (pending.length < RECORD_BATCH && linger > 0) await new Promise((r) => setTimeout(r, linger));
      const rows = pending.splice(0, RECORD_BATCH);
      try {
        // The sends and their events (`email.sent`, `sms.sent`) commit together, as the system.
        const ids = await actingAs(db, SYSTEM_ACTOR)
          .transaction()
          .execute(async (trx) => {
            const ids = await finishLeasedMany(
              trx,
              DELIVERY_LEASES,
              rows.map((r) => r.lease),
              {
                values: { provider_message_id: { type: 'text', of: rows.map((r) => r.providerMessageId) } },
                set: sql`status = 'sent', sent_at = now(), provider_message_id = v.provider_message_id,
                         last_error = null, updated_at = now()`,
                where: asyncCommit,
              },
            );
            await recordPerChurch(
              trx,
              rows.filter((r) => ids.has(r.delivery.id)),
            );
            return ids;
          });
        for (const r of rows) r.done(ids.has(r.delivery.id));
      } catch (err) {
        for (const r of rows) r.fail(err);
      }
    }
    busy = false;
  };
  const recorder: SentRecorder = {
    add(delivery, providerMessageId, event) {
      return new Promise<boolean>((done, fail) => {
        pending.push({
          delivery,
          lease: leaseOf(delivery),
          providerMessageId,
          event,
          at: performance.now(),
          done,
          fail,
        });
        if (busy) return;
        busy = true;
        void drain();
      });
    },
  };
  recorders.set(db, recorder);
  return recorder;
}

/** The events of sends from several churches, in one transaction: each church's in one write. */
async function recordPerChurch(trx: Db, rows: readonly { delivery: Delivery; event: NewEvent }[]): Promise<void> {
  const byChurch = new Map<number, NewEvent[]>();
  for (const r of rows) byChurch.set(r.delivery.userId, [...(byChurch.get(r.delivery.userId) ?? []), r.event]);
  for (const userId of [...byChurch.keys()].sort((a, b) => a - b)) {
    await recordEvents(trx, userId, byChurch.get(userId)!);
  }
}
