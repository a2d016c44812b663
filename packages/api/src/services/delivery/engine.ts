import { isSent } from './status.js';
import { sql, type Channel, type DeliveriesTable, type DeliveryKind, type Db } from '@lampstand/db';
import type { Selectable } from 'kysely';
import type { DeliveryConfig } from './config.js';
import { takeRateSlot } from './rate-limit.js';
import { deliveryVerdicts, recordSkip, skippedError, type ContactVerdict } from './contact-rule.js';
import { claimWithinWarmup } from './warmup.js';
import { performance } from 'node:perf_hooks';
import type { NewEvent } from '../../schemas/events.js';
import { recordEvents } from '../events/record.js';
import { withActor } from '../events/actor.js';
import { sentEvent, smsFailedEvent, type DeliveryRef } from './events.js';
import type { JobName, JobPayloads, JobQueue } from '../../jobs.js';

export type Delivery = Selectable<DeliveriesTable>;

/** Which deliveries a run works on: a campaign's (the default), or a service plan's requests. */
export interface DeliveryGroup {
  kind: DeliveryKind;
  /** The column holding the id a run is given (snake_case). */
  column: 'campaign_id' | 'service_plan_id' | 'journey_id' | 'conversation_id' | 'statement_run_id' | 'user_id';
}

export const CAMPAIGN_GROUP: DeliveryGroup = { kind: 'campaign', column: 'campaign_id' };

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
 * Claim deliveries in batches (FOR UPDATE SKIP LOCKED, so any number of workers share a campaign)
 * and send them, `driver.concurrency` at once. The next batch is claimed while the last few of
 * the current one are still sending. A delivery is marked sent only after the provider accepted
 * it; a failure is retried with backoff, then marked failed with the reason. A claim left by a
 * worker that died is taken over once its lease runs out.
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
    .where(groupWhere(driver, campaignId))
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

/**
 * For a sweep: the groups of `group.kind` (plans, conversations) with deliveries a dead worker left
 * (or a lost job). Without `force`, only when work is claimable now yet nothing moved for 30 s.
 */
export async function stalledGroups(
  db: Db,
  group: DeliveryGroup,
  config: Pick<DeliveryConfig, 'claimLeaseSeconds'>,
  opts: { force?: boolean } = {},
): Promise<number[]> {
  const { rows } = await sql<{ groupId: number }>`
    select ${sql.ref(group.column)} as group_id from deliveries d
    where d.kind = ${group.kind} and d.status in ('pending', 'sending') and ${sql.ref(group.column)} is not null
    group by ${sql.ref(group.column)}
    having ${
      opts.force
        ? sql`true`
        : sql`count(*) filter (where (d.status = 'pending' and coalesce(d.next_attempt_at, now()) <= now())
                          or (d.status = 'sending' and d.claimed_at < now() - make_interval(secs => ${config.claimLeaseSeconds}))) > 0
           and max(d.updated_at) < now() - interval '30 seconds'`
    }`.execute(db);
  return rows.map((r) => r.groupId);
}

/** The job that sends a group's deliveries: its name, and its payload for a group id. */
export interface DeliverJob<N extends JobName> {
  name: N;
  payload: (groupId: number) => JobPayloads[N];
}

interface GroupDeps {
  db: Db;
  jobs: Pick<JobQueue, 'send'>;
  config: DeliveryConfig;
}

/**
 * A deliver job's work, for every kind but campaigns: each driver (one per channel) sends the
 * group's pending deliveries, and a run left with retries asks for the job again at its retry time.
 */
export async function deliverGroup<T, N extends JobName>(
  deps: GroupDeps,
  drivers: readonly ChannelDriver<T>[],
  groupId: number,
  job: DeliverJob<N>,
): Promise<RunResult[]> {
  const results: RunResult[] = [];
  for (const driver of drivers) {
    const result = await runDeliveries(deps.db, driver, groupId, deps.config);
    results.push(result);
    if (!result.finished && result.retryAt)
      await deps.jobs.send(job.name, job.payload(groupId), { startAfter: result.retryAt });
  }
  return results;
}

/**
 * The sweep of a kind: groups with work a dead worker (or a lost job) left, their deliver job asked
 * for again (see `stalledGroups`). The group ids.
 */
export async function requeueStalled<N extends JobName>(
  deps: GroupDeps,
  group: DeliveryGroup,
  job: DeliverJob<N>,
  opts: { force?: boolean } = {},
): Promise<number[]> {
  const stalled = await stalledGroups(deps.db, group, deps.config, opts);
  for (const groupId of stalled) await deps.jobs.send(job.name, job.payload(groupId));
  return stalled;
}

/** A delivery as its events name it. */
function refOf(d: Delivery, campaign: DeliveryRef['campaign']): DeliveryRef {
  const { id, userId, contactId, channel, address, firstName, lastName } = d;
  return { id, userId, contactId, channel, address, firstName, lastName, campaign };
}

/** `kind = … and <group column> = id`, for the deliveries of one group. */
function groupWhere<C>(driver: ChannelDriver<C>, id: number) {
  const g = driver.group ?? CAMPAIGN_GROUP;
  return sql<boolean>`kind = ${g.kind} and ${sql.ref(g.column)} = ${id}`;
}

/**
 * In the WHERE clause of the delivery writes (renew a claim, mark sent): commit without waiting
 * for the WAL flush. With hundreds of small commits a second, every worker otherwise queues on
 * WALSync (seen in pg_stat_activity during `pnpm bench:scale`). The write is visible to every other
 * worker at once; only a crash of PostgreSQL itself can lose the last fraction of a second of them,
 * and then those messages go out again: the engine is at-least-once anyway (see engine.test.ts).
 */
const asyncCommit = sql<boolean>`set_config('synchronous_commit', 'off', true) is not null`;

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

interface Claimed {
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
function claimQueue<C>(db: Db, driver: ChannelDriver<C>, campaignId: number, config: DeliveryConfig) {
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
          .where(groupWhere(driver, campaignId))
          .limit(1)
          .executeTakeFirst()
      )?.userId ?? null;
    if (church === null) return [];
    return claimWithinWarmup(db, {
      tenantId: church,
      now: config.clock?.() ?? new Date(),
      want: batchSize,
      groupWhere: groupWhere(driver, campaignId),
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
 * Accepted deliveries are marked sent in batches, group-commit style, one recorder per process
 * (per `db`) shared by every delivery job in it: a write takes everything accepted in the
 * `RECORD_LINGER_MS` since the oldest of them (or `RECORD_BATCH` rows, when that many come first),
 * and what is accepted while it runs waits for the next. Without the linger, a worker sending
 * about a thousand messages a second wrote one transaction (the church's event lock, an event
 * insert, a commit) for every one or two messages, since each write found only what arrived
 * during the one before: 60,000 transactions for 100,000 messages, most of PostgreSQL's work per
 * message (`pnpm bench:journeys`, docs/benchmarks.md). A message thus waits at most the linger
 * plus about two round trips between the provider's acceptance and its record (the window in
 * which a crash resends it). Fenced by the claim: a delivery another worker took over is left to it.
 */
const RECORD_LINGER_MS = 25;
const RECORD_BATCH = 500;

const recorders = new WeakMap<Db, SentRecorder>();

interface SentRecorder {
  /** Resolves true once marked sent, false when the claim was no longer ours; rejects on a database error. */
  add(delivery: Delivery, providerMessageId: string, event: NewEvent): Promise<boolean>;
}

function sentRecorder(db: Db): SentRecorder {
  const existing = recorders.get(db);
  if (existing) return existing;
  interface Row {
    id: number;
    userId: number;
    claimedAt: Date;
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
        const ids = await withActor({ kind: 'system', id: null }, () =>
          db.transaction().execute(async (trx) => {
            const updated = await sql<{ id: number }>`
              update deliveries d
              set status = 'sent', sent_at = now(), provider_message_id = v.provider_message_id, last_error = null,
                  claimed_at = null, updated_at = now()
              from unnest(${rows.map((r) => r.id)}::int[], ${rows.map((r) => r.claimedAt)}::timestamptz[],
                          ${rows.map((r) => r.providerMessageId)}::text[]) as v(id, claimed_at, provider_message_id)
              where d.id = v.id and d.status = 'sending' and d.claimed_at = v.claimed_at and ${asyncCommit}
              returning d.id`.execute(trx);
            const ids = new Set(updated.rows.map((r) => r.id));
            await recordPerChurch(
              trx,
              rows.filter((r) => ids.has(r.id)),
            );
            return ids;
          }),
        );
        for (const r of rows) r.done(ids.has(r.id));
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
          id: delivery.id,
          userId: delivery.userId,
          claimedAt: delivery.claimedAt!,
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

/**
 * The events of sends from several churches, in one transaction: each church's in one write, the
 * churches in the order of their ids (every recorder takes their locks in the same order).
 */
async function recordPerChurch(trx: Db, rows: readonly { userId: number; event: NewEvent }[]): Promise<void> {
  const byChurch = new Map<number, NewEvent[]>();
  for (const r of rows) byChurch.set(r.userId, [...(byChurch.get(r.userId) ?? []), r.event]);
  for (const userId of [...byChurch.keys()].sort((a, b) => a - b)) {
    await recordEvents(trx, userId, byChurch.get(userId)!);
  }
}

/**
 * A failed send: back to pending for a retry, or failed for good (an SMS with its `sms.failed`
 * event, in the same transaction); true when it was marked failed.
 */
async function recordFailure<C>(
  db: Db,
  driver: ChannelDriver<C>,
  ref: DeliveryRef,
  delivery: Delivery,
  err: unknown,
  config: DeliveryConfig,
): Promise<boolean> {
  const { reason, giveUp, retryAt } = retryOutcome(err, delivery.attempts, config);
  const failed = await db.transaction().execute(async (trx) => {
    const recorded = await trx
      .updateTable('deliveries')
      .set(
        giveUp
          ? { status: 'failed', lastError: reason, claimedAt: null, updatedAt: new Date() }
          : { status: 'pending', lastError: reason, claimedAt: null, nextAttemptAt: retryAt, updatedAt: new Date() },
      )
      .where('id', '=', delivery.id)
      // Only while still ours: a worker whose lease ran out must not undo the one that took over.
      .where('status', '=', 'sending')
      .where('claimedAt', '=', delivery.claimedAt)
      .executeTakeFirst();
    if (!giveUp || Number(recorded.numUpdatedRows) === 0) return false;
    await trx.insertInto('deliveryEvents').values({ deliveryId: delivery.id, type: 'failed', url: null }).execute();
    // No `email.failed` type: an email that never left is not an event of the person's.
    if (delivery.channel === 'sms') await recordEvents(trx, delivery.userId, [smsFailedEvent(ref, reason)]);
    return true;
  });
  if (!failed) return false;
  await driver.failed?.(delivery, reason);
  return true;
}

/**
 * Renew the claim on one delivery before its send; false when it is no longer ours (the lease
 * ran out and another worker took it, or it was finished meanwhile). The new stamp is kept on the
 * delivery, so the write that records the outcome can check it too.
 */
async function renewClaim(db: Db, delivery: Delivery, config: Pick<DeliveryConfig, 'clock'>): Promise<boolean> {
  const renewed = await sql<{ claimedAt: Date }>`
    update deliveries set claimed_at = ${claimStamp(config)}
    where id = ${delivery.id} and status = 'sending' and claimed_at = ${delivery.claimedAt} and ${asyncCommit}
    returning claimed_at`.execute(db);
  const row = renewed.rows[0];
  if (!row) return false;
  delivery.claimedAt = row.claimedAt;
  return true;
}

/**
 * A claim's stamp, its fence: the outcome and a renewal are written only while it is unchanged.
 * Milliseconds, as a JavaScript Date holds them, so the stamp read back compares equal.
 */
function claimStamp(config: Pick<DeliveryConfig, 'clock'>) {
  return config.clock
    ? sql<Date>`date_trunc('milliseconds', ${config.clock()}::timestamptz)`
    : sql<Date>`date_trunc('milliseconds', clock_timestamp())`;
}

async function claimBatch<C>(
  db: Db,
  driver: ChannelDriver<C>,
  campaignId: number,
  config: DeliveryConfig,
  limit: number,
  held: ReadonlySet<number>,
): Promise<Delivery[]> {
  const rows = await sql<Delivery>`
    update deliveries d
    set status = 'sending', claimed_at = ${claimStamp(config)}, attempts = d.attempts + 1, updated_at = now()
    where d.id in (
      select id from deliveries
      where channel = ${driver.channel} and ${groupWhere(driver, campaignId)}
        and id <> all(${[...held]}::int[])
        and (
          (status = 'pending' and (next_attempt_at is null or next_attempt_at <= ${config.clock ? sql`${config.clock()}::timestamptz` : sql`now()`}))
          or (status = 'sending' and claimed_at < ${config.clock ? sql`${config.clock()}::timestamptz` : sql`now()`} - make_interval(secs => ${config.claimLeaseSeconds}))
        )
      order by id
      limit ${limit}
      for update skip locked
    )
    returning d.*`.execute(db);
  return rows.rows;
}

/**
 * The one retry policy of every channel (campaign deliveries and social posts alike): give up
 * after `maxAttempts` tries or on an error that trying again cannot fix, else try again after
 * retryBaseSeconds, doubling with each try.
 */
export function retryOutcome(
  err: unknown,
  attempts: number,
  config: Pick<DeliveryConfig, 'maxAttempts' | 'retryBaseSeconds'>,
): { reason: string; giveUp: boolean; retryAt: Date | null } {
  const reason = (err instanceof Error ? err.message : String(err)).slice(0, 500);
  const giveUp = attempts >= config.maxAttempts || isPermanent(err);
  return {
    reason,
    giveUp,
    retryAt: giveUp ? null : new Date(Date.now() + config.retryBaseSeconds * 1000 * 2 ** (attempts - 1)),
  };
}

/** Errors that will not go away by trying again (a 5xx SMTP reply, an invalid number, a 4xx webhook answer). */
function isPermanent(err: unknown): boolean {
  const e = err as { responseCode?: number; permanent?: boolean } | null;
  return (
    !!e &&
    (e.permanent === true || (typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600))
  );
}
