import crypto from 'node:crypto';
import { sql, type Db, type Row } from '@lampstand/db';
import type { JobQueue } from '../../jobs.js';
import type { PaymentsProvider } from '../../providers/payments.js';
import type { CardFee } from '../../schemas/giving.js';
import { lockedRows } from '../background/locked.js';
import { recordEvents } from '../events/record.js';
import { completeGift, destinationFor, frequencyLabel, giftEvent } from './gifts.js';
import { nextChargeDate } from './dates.js';

// Charging due schedules: the recurring gifts whose date (or retry) has come.

/** Retries after a declined charge: 1, 3 and 7 days after the first failure. */
export const RETRY_DAYS = [1, 3, 7] as const;

export interface ChargeDeps {
  db: Db;
  payments: PaymentsProvider;
  cardFee: CardFee;
  jobs: JobQueue;
}

type Schedule = Row<'giftSchedules'>;

/**
 * The 'giving-charge-due' job: every active schedule whose date has come (in its church's time
 * zone, at `now`), one at a time, each claimed for its transaction (the claim primitive's
 * `lockedBatches`: FOR UPDATE SKIP LOCKED) so two workers never take the same one; its gift for the date is unique per (schedule, date), and Stripe's idempotency
 * key is per (schedule, date, attempt): a job that dies mid-charge and runs again charges once.
 * A paused schedule whose pause has ended resumes (the dates inside the pause are skipped).
 */
export async function chargeDueSchedules(
  deps: ChargeDeps,
  opts: { now: Date; limit?: number },
): Promise<{ charged: number; failed: number; pending: number }> {
  const out = { charged: 0, failed: 0, pending: 0 };
  const limit = opts.limit ?? 10_000;
  const localToday = sql<string>`(${opts.now}::timestamptz at time zone coalesce(cs.time_zone, 'UTC'))::date`;
  let taken = 0;
  // One schedule a transaction, claimed for its length; each at most once a run (a schedule left
  // due, its charge pending, is not taken again).
  const batches = lockedRows(deps.db, {
    due: (trx) =>
      trx
        .selectFrom('giftSchedules as gs')
        .leftJoin('churchSettings as cs', 'cs.userId', 'gs.userId')
        .selectAll('gs')
        .select(sql<string>`${localToday}::text`.as('today'))
        .where('gs.stripePaymentMethodId', 'is not', null)
        .where((eb) =>
          eb.or([
            eb.and([
              eb('gs.status', '=', 'active'),
              eb('gs.nextDate', '<=', localToday),
              eb.or([eb('gs.retryAt', 'is', null), eb('gs.retryAt', '<=', opts.now)]),
            ]),
            eb.and([eb('gs.status', '=', 'paused'), eb('gs.pausedUntil', '<=', localToday)]),
          ]),
        )
        .orderBy('gs.nextDate')
        .orderBy('gs.id'),
    lock: 'gs',
    once: { column: 'gs.id', id: (s) => s.id },
    work: (trx, schedule) => {
      const { today, ...row } = schedule;
      return chargeOne(trx, deps, row, { now: opts.now, today });
    },
  });
  for await (const { out: outcome } of batches) {
    if (outcome === 'succeeded') out.charged++;
    else if (outcome === 'failed') out.failed++;
    else if (outcome === 'requires_action') out.pending++;
    if (++taken >= limit) break;
  }
  return out;
}

async function chargeOne(
  trx: Db,
  deps: ChargeDeps,
  schedule: Schedule,
  at: { now: Date; today: string },
): Promise<'succeeded' | 'failed' | 'requires_action' | 'resumed' | 'skipped'> {
  const frequency = schedule.frequency;
  if (schedule.status === 'paused') {
    let next = schedule.nextDate;
    while (schedule.pausedUntil && next < schedule.pausedUntil)
      next = nextChargeDate(frequency, next, schedule.startDate);
    await trx
      .updateTable('giftSchedules')
      .set({ status: 'active', pausedUntil: null, nextDate: next, updatedAt: at.now })
      .where('id', '=', schedule.id)
      .execute();
    return 'resumed';
  }
  const date = schedule.nextDate;
  const advance = async () =>
    trx
      .updateTable('giftSchedules')
      .set({
        nextDate: nextChargeDate(frequency, date, schedule.startDate),
        failedAttempts: 0,
        retryAt: null,
        lastFailure: null,
        status: 'active',
        updatedAt: at.now,
      })
      .where('id', '=', schedule.id)
      .execute();

  const lines = await trx
    .selectFrom('giftScheduleLines')
    .select(['fundId', 'amountCents'])
    .where('scheduleId', '=', schedule.id)
    .orderBy('id')
    .execute();
  const totalCents = schedule.amountCents + schedule.feeCents;
  const inserted = await trx
    .insertInto('gifts')
    .values({
      userId: schedule.userId,
      contactId: schedule.contactId,
      scheduleId: schedule.id,
      chargeDate: date,
      amountCents: totalCents,
      feeCents: schedule.feeCents,
      donorName: schedule.donorName,
      donorEmail: schedule.donorEmail,
      donorAddress: schedule.donorAddress ? JSON.stringify(schedule.donorAddress) : null,
      note: schedule.note,
      frequency,
      idempotencyKey: `schedule-${schedule.id}-${date}`,
      isDemo: schedule.isDemo,
      sourceKind: schedule.sourceKind,
      sourceId: schedule.sourceId,
      receiptToken: crypto.randomBytes(24).toString('base64url'),
    })
    .onConflict((oc) => oc.columns(['scheduleId', 'chargeDate']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) {
    await trx
      .insertInto('giftLines')
      .values(
        lines.map((l) => ({
          userId: schedule.userId,
          giftId: inserted.id,
          fundId: l.fundId,
          amountCents: l.amountCents,
        })),
      )
      .execute();
  }
  const gift = await trx
    .selectFrom('gifts')
    .selectAll()
    .where('scheduleId', '=', schedule.id)
    .where('chargeDate', '=', date)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (gift.status !== 'pending' && gift.status !== 'failed') {
    // Paid already (a job that died after the charge): only the date moves on.
    await advance();
    return 'skipped';
  }
  const destination = await destinationFor(trx, deps.payments, schedule.userId, totalCents).catch(() => null);
  const result = await deps.payments.chargeOffSession({
    amountCents: totalCents,
    currency: 'usd',
    customer: schedule.stripeCustomerId ?? '',
    paymentMethod: schedule.stripePaymentMethodId ?? '',
    // Per (schedule, date, card, attempt): a retry or a new card is a new charge; a job run again is not.
    idempotencyKey: `schedule-${schedule.id}-${date}-${schedule.stripePaymentMethodId}-attempt-${schedule.failedAttempts}`,
    metadata: { churchId: String(schedule.userId), scheduleId: String(schedule.id), giftId: String(gift.id), date },
    description: `${frequencyLabel(frequency)} gift`,
    destination,
  });
  if (result.id) {
    await trx
      .updateTable('gifts')
      .set({
        stripePaymentId: result.id,
        stripeCustomerId: schedule.stripeCustomerId,
        stripeAccountId: destination?.account ?? null,
        platformFeeCents: destination?.applicationFeeCents ?? 0,
        ...(result.status === 'requires_action' ? { stripeClientSecret: result.clientSecret } : {}),
        updatedAt: at.now,
      })
      .where('id', '=', gift.id)
      .execute();
  }
  if (result.status === 'succeeded') {
    await completeGift(trx, { ...gift, stripePaymentId: result.id }, { now: at.now });
    await advance();
    return 'succeeded';
  }
  if (result.status === 'requires_action') {
    // The bank asks the donor: an email with a link to finish; the webhook completes the gift.
    await deps.jobs.send('giving-notice', { kind: 'action-required', scheduleId: schedule.id, giftId: gift.id });
    await advance();
    return 'requires_action';
  }
  const attempts = schedule.failedAttempts + 1;
  const failing = attempts > RETRY_DAYS.length;
  const retryAfterDays = failing ? null : RETRY_DAYS[attempts - 1]! - (attempts > 1 ? RETRY_DAYS[attempts - 2]! : 0);
  await trx
    .updateTable('gifts')
    .set({ status: 'failed', failureReason: result.message.slice(0, 500), updatedAt: at.now })
    .where('id', '=', gift.id)
    .execute();
  await trx
    .updateTable('giftSchedules')
    .set({
      failedAttempts: attempts,
      lastFailure: result.message.slice(0, 500),
      retryAt: retryAfterDays === null ? null : new Date(at.now.getTime() + retryAfterDays * 86_400_000),
      status: failing ? 'failing' : 'active',
      updatedAt: at.now,
    })
    .where('id', '=', schedule.id)
    .execute();
  if (attempts === 1)
    await deps.jobs.send('giving-notice', { kind: 'card-failed', scheduleId: schedule.id, giftId: gift.id });
  if (failing) await deps.jobs.send('giving-notice', { kind: 'schedule-failing', scheduleId: schedule.id });
  const contact = gift.contactId
    ? ((await trx
        .selectFrom('contacts')
        .select(['id', 'firstName', 'lastName', 'email'])
        .where('id', '=', gift.contactId)
        .executeTakeFirst()) ?? null)
    : null;
  const event = await giftEvent(trx, gift, contact, { type: 'donation.failed', reason: result.message });
  await recordEvents(trx, gift.userId, [event], { actor: { kind: 'system', id: null } });
  return 'failed';
}
