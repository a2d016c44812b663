import { performance } from 'node:perf_hooks';
import { sql, type Db } from '@lampstand/db';
import { claimLeased, renewLease } from '../background/claim.js';
import type { DeliveryConfig } from './config.js';
import { deliveryVerdicts, type ContactVerdict } from './contact-rule.js';
import type { ChannelDriver } from './engine.js';
import { DELIVERY_LEASES, asyncCommit, groupWhere, leaseOf, type Delivery } from './leases.js';
import { claimWithinWarmup } from './warmup.js';

export interface Claimed {
  delivery: Delivery;
  /** Why the contact rule holds it back; none: it may be sent. */
  verdict?: Exclude<ContactVerdict, { send: true }>;
  /** The monotonic clock just before the claim (or its last renewal) was sent to the database. */
  since: number;
}

/** Tries of a renewal whose answer came back too late to trust before a claim is given up. */
const RENEW_TRIES = 3;

/**
 * The deliveries this worker holds, claimed a batch at a time: the next batch is claimed as soon as
 * fewer than `concurrency` are left, so the senders never wait on a claim round trip.
 *
 * A delivery stays in `held` from its claim until its outcome is written (`settle`): sent and not
 * yet marked, its lease may run out (a slow send, a loaded machine), and this worker's next claim
 * would otherwise take it back as a dead worker's and send it a second time.
 */
export function claimQueue<C>(db: Db, driver: ChannelDriver<C>, campaignId: number, config: DeliveryConfig) {
  const batchSize = Math.max(1, Math.min(config.batchSize, driver.concurrency * 8));
  // A claim is renewed before a send that starts more than half a lease after it was made. Timed
  // with this process's monotonic clock from before the claim was sent: the database stamped the
  // claim later than that, so another worker can take it over only after a full lease from then.
  const renewAfterMs = (config.claimLeaseSeconds * 1000) / 2;
  const clock = config.clock ? () => config.clock!().getTime() : () => performance.now();
  const held = new Set<number>();
  const queue: Claimed[] = [];
  let exhausted = false;
  let claiming: Promise<void> | null = null;
  // Email in a new church's first week, with EMAIL_WARMUP: at most the day's warm-up number (warmup.ts).
  const warmup = config.emailWarmup && driver.channel === 'email';
  let church: number | null | undefined;
  const claim = async (): Promise<Delivery[]> => {
    if (!warmup) return claimBatch(db, driver, campaignId, config, batchSize, held);
    church ??=
      (
        await db
          .selectFrom('deliveries')
          .select('userId')
          .where(groupWhere(driver.group, campaignId))
          .limit(1)
          .executeTakeFirst()
      )?.userId ?? null;
    if (church === null) return [];
    return claimWithinWarmup(db, {
      tenantId: church,
      now: config.clock?.() ?? new Date(),
      want: batchSize,
      groupWhere: groupWhere(driver.group, campaignId),
      claim: (trx, limit) => claimBatch(trx, driver, campaignId, config, limit, held),
    });
  };
  const refill = async () => {
    const since = clock();
    const rows = await claim();
    if (rows.length < batchSize) exhausted = true;
    const verdicts = await deliveryVerdicts(db, driver.channel, rows, {
      now: config.clock?.(),
      quietHours: config.smsQuietHours,
    });
    for (const delivery of rows) {
      held.add(delivery.id);
      queue.push({ delivery, since, verdict: verdicts.get(delivery.id) });
    }
  };
  return {
    /** The next delivery to send; undefined when nothing claimable is left. */
    async next(): Promise<Claimed | undefined> {
      for (;;) {
        if (!exhausted && !claiming && queue.length < driver.concurrency) {
          claiming = refill().finally(() => (claiming = null));
        }
        const head = queue.shift();
        if (head) return head;
        if (!claiming) return undefined;
        await claiming;
      }
    },
    /**
     * True when the claim is (still) ours to send on, renewing it when it is getting old. A renewal
     * proves the claim was ours when the database ran it, not when its answer arrived: an answer
     * that took more than half a lease (a stalled process) is not trusted, and the claim is renewed
     * again (false when another worker took it meanwhile, or after RENEW_TRIES late answers).
     */
    async hold(c: Claimed): Promise<boolean> {
      for (let tries = 0; clock() - c.since >= renewAfterMs; tries++) {
        if (tries === RENEW_TRIES) return false;
        const since = clock();
        if (!(await renewClaim(db, c.delivery, config))) return false;
        c.since = since;
      }
      return true;
    },
    /** The delivery's outcome is written (or it was skipped): claimable again if still open. */
    settle(delivery: Delivery): void {
      held.delete(delivery.id);
    },
  };
}

/**
 * Renew the claim on one delivery before its send; false when it is no longer ours (the lease
 * ran out and another worker took it, or it was finished meanwhile). The new stamp is kept on the
 * delivery, so the write that records the outcome fences on it too.
 */
async function renewClaim(db: Db, delivery: Delivery, config: DeliveryConfig): Promise<boolean> {
  const renewed = await renewLease(db, DELIVERY_LEASES, leaseOf(delivery), {
    leaseSeconds: config.claimLeaseSeconds,
    now: config.clock?.(),
    where: sql`t.status = 'sending' and ${asyncCommit}`,
  });
  if (!renewed) return false;
  delivery.claimedAt = renewed.lease.lease;
  return true;
}

/** Pending deliveries of the group (or sending ones a dead worker left), claimed: status 'sending'. */
async function claimBatch<C>(
  db: Db,
  driver: ChannelDriver<C>,
  campaignId: number,
  config: DeliveryConfig,
  limit: number,
  held: ReadonlySet<number>,
): Promise<Delivery[]> {
  const now = config.clock?.();
  const claimed = await claimLeased<Delivery>(db, DELIVERY_LEASES, {
    due: sql`x.channel = ${driver.channel} and ${groupWhere(driver.group, campaignId)}
      and x.status in ('pending', 'sending')
      and (x.next_attempt_at is null or x.next_attempt_at <= ${now ? sql`${now}::timestamptz` : sql`now()`})`,
    order: sql`x.id`,
    limit,
    leaseSeconds: config.claimLeaseSeconds,
    now,
    held,
    set: sql`status = 'sending', updated_at = now()`,
  });
  return claimed.map((c) => c.row);
}
