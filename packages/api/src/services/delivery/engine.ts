import { isSent } from './status.js';
import { sql, type Channel, type DeliveriesTable, type Db } from '@lampstand/db';
import type { Selectable } from 'kysely';
import type { DeliveryConfig } from './config.js';
import { takeRateSlot } from './rate-limit.js';

export type Delivery = Selectable<DeliveriesTable>;

/** What differs between email and SMS: how one message is made and handed to the provider. */
export interface ChannelDriver<C> {
  channel: Channel;
  /** The campaigns table (snake_case), marked sent or failed when every delivery is done. */
  table: string;
  /** The campaign and what every message of it needs; null when it no longer exists. */
  load(campaignId: number): Promise<C | null>;
  send(campaign: C, delivery: Delivery): Promise<{ providerMessageId: string }>;
  ratePerSecond?: number;
  concurrency: number;
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
 * Claim deliveries in batches (FOR UPDATE SKIP LOCKED, so any number of workers share a campaign)
 * and send them. A delivery is marked sent only after the provider accepted it; a failure is
 * retried with backoff, then marked failed with the reason. A claim left by a worker that died is
 * taken over once its lease runs out.
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

  // Small batches: a claim is renewed just before each send, and the lease must outlast one send.
  const batchSize = Math.max(1, Math.min(config.batchSize, driver.concurrency * 4));
  for (;;) {
    const batch = await claimBatch(db, driver.channel, campaignId, config, batchSize);
    if (batch.length === 0) break;
    let next = 0;
    const workers = Array.from({ length: Math.min(driver.concurrency, batch.length) }, async () => {
      while (next < batch.length) {
        const delivery = batch[next++]!;
        if (driver.ratePerSecond) await takeRateSlot(db, `${driver.channel}`, driver.ratePerSecond);
        // Fencing: renew our claim, or skip the delivery if another worker took it over meanwhile.
        if (!(await renewClaim(db, delivery))) continue;
        try {
          const { providerMessageId } = await driver.send(campaign, delivery);
          await sql`
            update deliveries
            set status = 'sent', sent_at = now(), provider_message_id = ${providerMessageId}, last_error = null,
                claimed_at = null, updated_at = now()
            where id = ${delivery.id} and ${asyncCommit}`.execute(db);
          result.sent++;
        } catch (err) {
          const reason = err instanceof Error ? err.message : String(err);
          const giveUp = delivery.attempts >= config.maxAttempts || isPermanent(err);
          const recorded = await db
            .updateTable('deliveries')
            .set(
              giveUp
                ? { status: 'failed', lastError: reason, claimedAt: null, updatedAt: new Date() }
                : {
                    status: 'pending',
                    lastError: reason,
                    claimedAt: null,
                    nextAttemptAt: new Date(Date.now() + config.retryBaseSeconds * 1000 * 2 ** (delivery.attempts - 1)),
                    updatedAt: new Date(),
                  },
            )
            .where('id', '=', delivery.id)
            // Only while still ours: a worker whose lease ran out must not undo the one that took over.
            .where('status', '=', 'sending')
            .where('claimedAt', '=', delivery.claimedAt)
            .executeTakeFirst();
          if (giveUp && Number(recorded.numUpdatedRows) > 0) {
            result.failed++;
            await db
              .insertInto('deliveryEvents')
              .values({ deliveryId: delivery.id, type: 'failed', url: null })
              .execute();
          }
        }
      }
    });
    await Promise.all(workers);
  }

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
    .where('campaignId', '=', campaignId)
    .executeTakeFirstOrThrow();
  if (Number(open.sending) === 0 && Number(open.pending) === 0) {
    // Sent when anything reached someone; failed (with the reason) when nothing could be delivered.
    const outcome = Number(open.ok) > 0 ? 'sent' : 'failed';
    await sql`
      update ${sql.table(driver.table)}
      set status = ${outcome}, sent_at = now(), updated_at = now(),
          error = ${outcome === 'failed' ? 'No message could be delivered' : null}
      where id = ${campaignId} and status = 'sending'`.execute(db);
    result.finished = true;
  } else if (Number(open.pending) > 0 && open.nextAt) {
    result.retryAt = new Date(open.nextAt);
  } else if (open.oldestClaim) {
    // Another worker holds claims: look again when its lease would run out.
    result.retryAt = new Date(new Date(open.oldestClaim).getTime() + config.claimLeaseSeconds * 1000 + 500);
  }
  return result;
}

/**
 * In the WHERE clause of the per-message writes (renew a claim, mark sent): commit without waiting
 * for the WAL flush. With thousands of one-row commits a second, every worker otherwise queues on
 * WALSync (seen in pg_stat_activity during `pnpm bench:scale`). The write is visible to every other
 * worker at once; only a crash of PostgreSQL itself can lose the last fraction of a second of them,
 * and then those messages go out again: the engine is at-least-once anyway (see engine.test.ts).
 */
const asyncCommit = sql<boolean>`set_config('synchronous_commit', 'off', true) is not null`;

/**
 * Renew the claim on one delivery just before its send; false when it is no longer ours (the lease
 * ran out and another worker took it, or it was finished meanwhile). The new stamp is kept on the
 * delivery, so the write that records the outcome can check it too.
 */
async function renewClaim(db: Db, delivery: Delivery): Promise<boolean> {
  const renewed = await sql<{ claimedAt: Date }>`
    update deliveries set claimed_at = date_trunc('milliseconds', clock_timestamp())
    where id = ${delivery.id} and status = 'sending' and claimed_at = ${delivery.claimedAt} and ${asyncCommit}
    returning claimed_at`.execute(db);
  const row = renewed.rows[0];
  if (!row) return false;
  delivery.claimedAt = row.claimedAt;
  return true;
}

async function claimBatch(
  db: Db,
  channel: Channel,
  campaignId: number,
  config: DeliveryConfig,
  limit: number,
): Promise<Delivery[]> {
  const rows = await sql<Delivery>`
    update deliveries d
    set status = 'sending', claimed_at = date_trunc('milliseconds', clock_timestamp()), attempts = d.attempts + 1, updated_at = now()
    where d.id in (
      select id from deliveries
      where channel = ${channel} and campaign_id = ${campaignId}
        and (
          (status = 'pending' and (next_attempt_at is null or next_attempt_at <= now()))
          or (status = 'sending' and claimed_at < now() - make_interval(secs => ${config.claimLeaseSeconds}))
        )
      order by id
      limit ${limit}
      for update skip locked
    )
    returning d.*`.execute(db);
  return rows.rows;
}

/** Errors that will not go away by trying again (a 5xx SMTP reply, an invalid number). */
function isPermanent(err: unknown): boolean {
  const e = err as { responseCode?: number; permanent?: boolean } | null;
  return (
    !!e &&
    (e.permanent === true || (typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600))
  );
}
