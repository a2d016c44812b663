import { sql, type Channel, type Db } from '@lampstand/db';
import { isSent } from './status.js';
import type { DeliveryConfig } from './config.js';
import { takeRateSlot } from './rate-limit.js';
import { recordSkip, skippedError } from './contact-rule.js';
import { sentEvent, type DeliveryRef } from './events.js';
import { claimQueue } from './claim-queue.js';
import { recordFailure } from './retry.js';
import { sentRecorder } from './sent-recorder.js';
import { CAMPAIGN_GROUP, groupWhere, type Delivery, type DeliveryGroup } from './leases.js';

export { CAMPAIGN_GROUP, type Delivery, type DeliveryGroup };

/**
 * What differs between email and SMS, campaigns and planner requests: how one message is made and
 * handed to the provider, and what is recorded when everything of a group is done.
 */
export interface ChannelDriver<C> {
  channel: Channel;
  /** Which deliveries: a campaign's when absent. */
  group?: DeliveryGroup;
  /** Every delivery of the group is sent or failed ('sent' when anything reached someone). */
  finish(groupId: number, outcome: 'sent' | 'failed'): Promise<void>;
  /** A delivery failed for good (after its retries), with the reason. */
  failed?(delivery: Delivery, reason: string): Promise<void>;
  /** The campaign (or plan) and what every message of it needs; null when it no longer exists. */
  load(campaignId: number): Promise<C | null>;
  send(campaign: C, delivery: Delivery): Promise<{ providerMessageId: string }>;
  /** Sends started per second across every worker; undefined = no limit. */
  ratePerSecond?: number;
  /** Sends in flight at once in this process, every delivery job of the channel together. */
  concurrency: number;
  /** The campaign its delivery events name (`email.sent`, …); none for a planner request. */
  campaignRef?(campaign: C): { id: number; name: string } | null;
}

export interface RunResult {
  sent: number;
  failed: number;
  /** Everything is sent or failed; the campaign was finished. */
  finished: boolean;
  /** When retries are waiting: the earliest time to run again. */
  retryAt?: Date;
}

/**
 * Claim deliveries in batches (the claim primitive, background/claim.ts: FOR UPDATE SKIP LOCKED and
 * a lease, so any number of workers share a campaign) and send them, `driver.concurrency` at once.
 * The next batch is claimed while the last few of the current one are still sending. A delivery is
 * marked sent only after the provider accepted it; a failure is retried with back-off, then marked
 * failed with the reason. A claim left by a worker that died is taken over once its lease runs out.
 *
 * Its parts: claim-queue.ts (claims and renewals), sent-recorder.ts (the sent marks, in batches),
 * retry.ts (failures and the retry policy), groups.ts (deliver jobs and sweeps of a kind).
 */
export async function runDeliveries<C>(
  db: Db,
  driver: ChannelDriver<C>,
  campaignId: number,
  config: DeliveryConfig,
): Promise<RunResult> {
  const result: RunResult = { sent: 0, failed: 0, finished: false };
  const campaign = await driver.load(campaignId);
  if (!campaign) return { ...result, finished: true };

  const claims = claimQueue(db, driver, campaignId, config);
  const recorder = sentRecorder(db);
  // Each record is awaited at the end, its outcome caught at once (no unhandled rejection meanwhile).
  const recorded: Promise<unknown>[] = [];
  let recordError: unknown = null;
  const inFlight = inFlightLimit(db, driver);
  /** Claim the next delivery and send it: null when nothing is left, 'skipped' when no longer ours. */
  const sendNext = async () => {
    const claimed = await claims.next();
    if (!claimed) return null;
    // The contact rule (contact-rule.ts), asked for the claimed batch: held back, nothing is sent.
    const verdict = claimed.verdict;
    if (verdict) return { delivery: claimed.delivery, verdict };
    // Its turn at the machine's pace (pacer.ts), then the provider's rate slot, taken when this
    // send can start at once: no queue between the two.
    await config.pacer?.take();
    if (driver.ratePerSecond) await takeRateSlot(db, `${driver.channel}`, driver.ratePerSecond);
    // Fencing: a claim older than half its lease is renewed first, or skipped if another worker
    // took it over meanwhile; no send starts on a claim that may have run out.
    if (!(await claims.hold(claimed))) {
      claims.settle(claimed.delivery);
      return 'skipped';
    }
    const delivery = claimed.delivery;
    try {
      const { providerMessageId } = await driver.send(campaign, delivery);
      return { delivery, providerMessageId };
    } catch (error) {
      return { delivery, error };
    }
  };
  const workers = Array.from({ length: driver.concurrency }, async () => {
    for (;;) {
      const release = await inFlight.acquire();
      const outcome = await sendNext().finally(release);
      if (outcome === null) return;
      if (outcome === 'skipped') continue;
      // Until its outcome is written the delivery stays this worker's: its own next claim must not
      // take it back as abandoned when its lease ran out meanwhile (see claimQueue).
      const settle = () => claims.settle(outcome.delivery);
      if ('verdict' in outcome && outcome.verdict) {
        const skipped = await recordSkip(db, outcome.delivery, outcome.verdict).finally(settle);
        if (skipped) {
          result.failed++;
          await driver.failed?.(outcome.delivery, skippedError(outcome.verdict));
        }
        continue;
      }
      if ('error' in outcome) {
        const ref = refOf(outcome.delivery, driver.campaignRef?.(campaign) ?? null);
        const failed = await recordFailure(db, driver, ref, outcome.delivery, outcome.error, config).finally(settle);
        if (failed) result.failed++;
        continue;
      }
      const ref = refOf(outcome.delivery, driver.campaignRef?.(campaign) ?? null);
      recorded.push(
        recorder
          .add(outcome.delivery, outcome.providerMessageId, sentEvent(ref))
          .finally(settle)
          .then(
            (ok) => void (ok && result.sent++),
            (err: unknown) => void (recordError ??= err),
          ),
      );
    }
  });
  // Every sender stops and every accepted message is recorded before the job ends, even when a
  // claim failed; the first error is rethrown then, so that pg-boss retries the job.
  const stopped = (await Promise.allSettled(workers)).find((w) => w.status === 'rejected');
  await Promise.all(recorded);
  const error: unknown = stopped?.reason ?? recordError;
  if (error) throw error instanceof Error ? error : new Error('The delivery job failed', { cause: error });

  const open = await db
    .selectFrom('deliveries')
    .select([
      sql<number>`count(*) filter (where status = 'sending')`.as('sending'),
      sql<number>`count(*) filter (where status = 'pending')`.as('pending'),
      sql<Date | null>`min(coalesce(next_attempt_at, now())) filter (where status = 'pending')`.as('nextAt'),
      sql<Date | null>`min(claimed_at) filter (where status = 'sending')`.as('oldestClaim'),
      sql<number>`count(*) filter (where ${isSent()})`.as('ok'),
    ])
    .where('channel', '=', driver.channel)
    .where(groupWhere(driver.group, campaignId))
    .executeTakeFirstOrThrow();
  if (Number(open.sending) === 0 && Number(open.pending) === 0) {
    // Sent when anything reached someone; failed (with the reason) when nothing could be delivered.
    await driver.finish(campaignId, Number(open.ok) > 0 ? 'sent' : 'failed');
    result.finished = true;
  } else if (Number(open.pending) > 0 && open.nextAt) {
    result.retryAt = new Date(open.nextAt);
  } else if (open.oldestClaim) {
    // Another worker holds claims: look again when its lease would run out.
    result.retryAt = new Date(new Date(open.oldestClaim).getTime() + config.claimLeaseSeconds * 1000 + 500);
  }
  return result;
}

/** A delivery as its events name it. */
function refOf(d: Delivery, campaign: DeliveryRef['campaign']): DeliveryRef {
  const { id, userId, contactId, channel, address, firstName, lastName } = d;
  return { id, userId, contactId, channel, address, firstName, lastName, campaign };
}

/**
 * Sends in flight at once per process and channel: `driver.concurrency`, shared by every delivery
 * job of the process (a process runs several, see the server's jobs/queue.ts).
 */
const limits = new WeakMap<Db, Map<string, { acquire(): Promise<() => void> }>>();

function inFlightLimit<C>(db: Db, driver: ChannelDriver<C>) {
  const perChannel = limits.get(db) ?? new Map<string, { acquire(): Promise<() => void> }>();
  limits.set(db, perChannel);
  const key = `${driver.channel}/${driver.concurrency}`;
  let limit = perChannel.get(key);
  if (!limit) {
    let free = driver.concurrency;
    const waiting: (() => void)[] = [];
    const release = () => {
      const next = waiting.shift();
      if (next) next();
      else free++;
    };
    limit = {
      async acquire() {
        if (free > 0) free--;
        else await new Promise<void>((r) => waiting.push(r));
        return release;
      },
    };
    perChannel.set(key, limit);
  }
  return limit;
}
