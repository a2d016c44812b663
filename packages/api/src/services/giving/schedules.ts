import crypto from 'node:crypto';
import { sql, type Db, type Row } from '@lampstand/db';
import type { z } from 'zod';
import { badRequest, notFound } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import type { EmailTransport } from '../../providers/email.js';
import type { PaymentsProvider } from '../../providers/payments.js';
import { escapeHtml } from '../../render/html.js';
import { toCsv } from '../../render/csv.js';
import {
  type CardFee,
  type findSchedulesSchema,
  type RecurringFrequency,
  type scheduleSchema,
  type updateScheduleSchema,
} from '../../schemas/giving.js';
import { coverFeeCents, formatCents } from '../../shared/giving.js';
import { recordEvents } from '../events/record.js';
import { completeGift, dateIn, destinationFor, frequencyLabel, giftEvent, tooLargeWithFees } from './gifts.js';
import { giftFunds } from './funds.js';
import { lastStartDate, nextChargeDate } from './dates.js';
import { MAX_CHARGE_CENTS } from '../../schemas/show-up-values.js';
import { DIRECT_SEND_RULES, mayContact } from '../delivery/contact-rule.js';

// ---- Charging due schedules

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
 * zone, at `now`), one at a time, each claimed with FOR UPDATE SKIP LOCKED so two workers never
 * take the same one; its gift for the date is unique per (schedule, date), and Stripe's idempotency
 * key is per (schedule, date, attempt): a job that dies mid-charge and runs again charges once.
 * A paused schedule whose pause has ended resumes (the dates inside the pause are skipped).
 */
export async function chargeDueSchedules(
  deps: ChargeDeps,
  opts: { now: Date; limit?: number },
): Promise<{ charged: number; failed: number; pending: number }> {
  const out = { charged: 0, failed: 0, pending: 0 };
  const limit = opts.limit ?? 10_000;
  const seen = new Set<number>();
  for (let i = 0; i < limit; i++) {
    const result = await deps.db.transaction().execute(async (trx) => {
      const localToday = sql<string>`(${opts.now}::timestamptz at time zone coalesce(cs.time_zone, 'UTC'))::date`;
      const schedule = await trx
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
        // One array parameter, not one per schedule seen: a run of 1,000 due at once stays linear.
        .$if(seen.size > 0, (q) => q.where(sql<boolean>`gs.id <> all(${[...seen]}::int[])`))
        .orderBy('gs.nextDate')
        .orderBy('gs.id')
        .limit(1)
        .forUpdate(['gs'])
        .skipLocked()
        .executeTakeFirst();
      if (!schedule) return null;
      seen.add(schedule.id);
      const { today, ...row } = schedule;
      return { outcome: await chargeOne(trx, deps, row, { now: opts.now, today }) };
    });
    if (!result) break;
    if (result.outcome === 'succeeded') out.charged++;
    else if (result.outcome === 'failed') out.failed++;
    else if (result.outcome === 'requires_action') out.pending++;
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

// ---- Staff: Giving → Recurring

type ScheduleOut = z.input<typeof scheduleSchema>;

async function linesOf(db: Db, tenantId: number, scheduleIds: number[]) {
  if (scheduleIds.length === 0) return new Map<number, ScheduleOut['lines']>();
  const rows = await db
    .selectFrom('giftScheduleLines as l')
    .innerJoin('funds as f', 'f.id', 'l.fundId')
    .select(['l.scheduleId', 'l.fundId', 'f.name as fundName', 'l.amountCents'])
    .where('l.userId', '=', tenantId)
    .where('l.scheduleId', 'in', scheduleIds)
    .orderBy('l.id')
    .execute();
  const map = new Map<number, ScheduleOut['lines']>();
  for (const r of rows) {
    const list = map.get(r.scheduleId) ?? [];
    list.push({ fundId: r.fundId, fundName: r.fundName, amountCents: r.amountCents });
    map.set(r.scheduleId, list);
  }
  return map;
}

const toSchedule = (s: Schedule, lines: ScheduleOut['lines']): ScheduleOut => ({
  id: s.id,
  contactId: s.contactId,
  donorName: s.donorName,
  donorEmail: s.donorEmail,
  frequency: s.frequency,
  startDate: s.startDate,
  nextDate: s.nextDate,
  status: s.status,
  pausedUntil: s.pausedUntil,
  amountCents: s.amountCents,
  feeCents: s.feeCents,
  coverFees: s.coverFees,
  failedAttempts: s.failedAttempts,
  lastFailure: s.lastFailure,
  lines,
  createdAt: s.createdAt,
});

/** The church's recurring gifts, by status and fund (the table and its CSV). */
export async function listSchedules(
  db: Db,
  tenantId: number,
  input: z.output<typeof findSchedulesSchema>,
): Promise<ScheduleOut[]> {
  let q = db.selectFrom('giftSchedules as gs').selectAll('gs').where('gs.userId', '=', tenantId);
  if (input.status) q = q.where('gs.status', '=', input.status);
  if (input.fundId) {
    const fundId = input.fundId;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('giftScheduleLines as l')
          .select('l.id')
          .whereRef('l.scheduleId', '=', 'gs.id')
          .where('l.fundId', '=', fundId),
      ),
    );
  }
  const rows = await q.orderBy('gs.createdAt', 'desc').orderBy('gs.id', 'desc').limit(5000).execute();
  const lines = await linesOf(
    db,
    tenantId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toSchedule(r, lines.get(r.id) ?? []));
}

/** The Recurring table as CSV, through the one CSV writer. */
export async function exportSchedules(db: Db, tenantId: number, input: z.output<typeof findSchedulesSchema>) {
  const rows = await listSchedules(db, tenantId, input);
  const csv = toCsv([
    ['Donor', 'Email', 'Frequency', 'Status', 'Next date', 'Amount (USD)', 'Fee covered (USD)', 'Funds', 'Started'],
    ...rows.map((s) => [
      s.donorName,
      s.donorEmail,
      frequencyLabel(s.frequency),
      s.status,
      s.nextDate,
      (s.amountCents / 100).toFixed(2),
      (s.feeCents / 100).toFixed(2),
      s.lines.map((l) => `${l.fundName}: ${(l.amountCents / 100).toFixed(2)}`).join('; '),
      s.startDate,
    ]),
  ]);
  return { fileName: 'recurring-gifts.csv', csv };
}

/**
 * Change a recurring gift (staff, or the donor through the portal): status active / paused
 * (with a date to resume) / cancelled, frequency, lines (funds and amounts), next date. PATCH:
 * unsent fields keep their values; the fee is worked out again from the new amount. The donor
 * (`by: 'donor'`) may choose only the church's public funds, as on the giving page; staff any.
 */
export async function updateSchedule(
  deps: { db: Db; cardFee: CardFee; now?: () => Date },
  tenantId: number,
  input: z.output<typeof updateScheduleSchema>,
  options: { by: 'staff' | 'donor' } = { by: 'staff' },
): Promise<ScheduleOut> {
  const now = deps.now?.() ?? new Date();
  await deps.db.transaction().execute(async (trx) => {
    const s = await trx
      .selectFrom('giftSchedules')
      .selectAll()
      .where('id', '=', input.id)
      .where('userId', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    if (!s) throw notFound('Recurring gift not found');
    if (s.status === 'cancelled') throw badRequest('This recurring gift is cancelled', 'status');
    const tz = await trx
      .selectFrom('churchSettings')
      .select('timeZone')
      .where('userId', '=', tenantId)
      .executeTakeFirst();
    const today = dateIn(now, tz?.timeZone);
    const set: {
      status?: Schedule['status'];
      pausedUntil?: string | null;
      cancelledAt?: Date;
      frequency?: RecurringFrequency;
      nextDate?: string;
      amountCents?: number;
      feeCents?: number;
    } = {};
    if (input.status === 'paused') {
      if (!input.pausedUntil) throw badRequest('Choose the date to resume', 'pausedUntil');
      if (input.pausedUntil <= today) throw badRequest('Paused until must be after today', 'pausedUntil');
      set.status = 'paused';
      set.pausedUntil = input.pausedUntil;
    } else if (input.status === 'active') {
      if (s.status === 'pending') throw badRequest('The card is not saved yet', 'status');
      set.status = 'active';
      set.pausedUntil = null;
      if (s.nextDate < today) set.nextDate = today;
    } else if (input.status === 'cancelled') {
      set.status = 'cancelled';
      set.cancelledAt = now;
    }
    if (input.frequency) set.frequency = input.frequency;
    if (input.nextDate) {
      if (input.nextDate < today) throw badRequest('Next date cannot be in the past', 'nextDate');
      if (input.nextDate > lastStartDate(today)) {
        throw badRequest('Next date must be within a year from today', 'nextDate');
      }
      set.nextDate = input.nextDate;
    }
    if (input.lines) {
      await giftFunds(trx, tenantId, {
        fundIds: input.lines.map((l) => l.fundId),
        publicOnly: options.by === 'donor',
      });
      const amount = input.lines.reduce((sum, l) => sum + l.amountCents, 0);
      set.amountCents = amount;
      set.feeCents = s.coverFees ? coverFeeCents(amount, deps.cardFee) : 0;
      if (amount + set.feeCents > MAX_CHARGE_CENTS) {
        throw badRequest(tooLargeWithFees(amount + set.feeCents), 'lines');
      }
      await trx.deleteFrom('giftScheduleLines').where('scheduleId', '=', s.id).execute();
      await trx
        .insertInto('giftScheduleLines')
        .values(
          input.lines.map((l) => ({
            userId: tenantId,
            scheduleId: s.id,
            fundId: l.fundId,
            amountCents: l.amountCents,
          })),
        )
        .execute();
    }
    await trx
      .updateTable('giftSchedules')
      .set({ ...set, updatedAt: now })
      .where('id', '=', s.id)
      .execute();
  });
  const row = await deps.db
    .selectFrom('giftSchedules')
    .selectAll()
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .executeTakeFirstOrThrow();
  const lines = await linesOf(deps.db, tenantId, [row.id]);
  return toSchedule(row, lines.get(row.id) ?? []);
}

// ---- Emails about a recurring gift

export interface NoticeDeps {
  db: Db;
  email: EmailTransport;
  emailFrom: string;
  publicUrl: string;
}

/**
 * The 'giving-notice' job: the donor's 'your card was declined' (with the link to update the card)
 * or 'confirm this payment with your bank', or staff's 'a recurring gift is failing'. Transactional
 * mail to one person about their own payment, like the gift receipts: through the email transport
 * from a pg-boss job that retries it.
 */
export async function sendGivingNotice(
  deps: NoticeDeps,
  input: { kind: 'card-failed' | 'schedule-failing' | 'action-required'; scheduleId: number; giftId?: number },
): Promise<void> {
  const s = await deps.db
    .selectFrom('giftSchedules as gs')
    .innerJoin('users as u', 'u.id', 'gs.userId')
    .leftJoin('churchProfiles as cp', 'cp.userId', 'gs.userId')
    .select(['gs.id', 'gs.userId', 'gs.donorName', 'gs.donorEmail', 'gs.amountCents', 'gs.feeCents', 'gs.frequency'])
    .select(['gs.manageToken', 'gs.lastFailure', 'u.churchName', 'u.email as churchEmail', 'cp.handle'])
    .where('gs.id', '=', input.scheduleId)
    .executeTakeFirst();
  if (!s) return;
  const amount = formatCents(s.amountCents + s.feeCents);
  const what = `${frequencyLabel(s.frequency).toLowerCase()} gift of ${amount} to ${s.churchName}`;
  const manage = `${deps.publicUrl}/give/manage/${s.manageToken}`;
  let to: string;
  let subject: string;
  let lines: string[];
  if (input.kind === 'schedule-failing') {
    to = s.churchEmail;
    subject = `A recurring gift is failing: ${s.donorName}`;
    lines = [
      `The ${what} from ${s.donorName} (${s.donorEmail}) was declined ${RETRY_DAYS.length + 1} times.`,
      `Last reason: ${s.lastFailure ?? 'declined'}.`,
      'It is marked failing and will not be charged until the donor updates their card. Giving → Recurring lists it.',
    ];
  } else if (input.kind === 'card-failed') {
    to = s.donorEmail;
    subject = `Your ${frequencyLabel(s.frequency).toLowerCase()} gift to ${s.churchName} did not go through`;
    lines = [
      `Hello ${s.donorName},`,
      `Your ${what} was declined (${s.lastFailure ?? 'declined'}). We will try again in ${RETRY_DAYS[0]} day.`,
      `Update your card here: ${manage}`,
    ];
  } else {
    to = s.donorEmail;
    subject = `Please confirm your gift to ${s.churchName}`;
    lines = [`Hello ${s.donorName},`, `Your bank asks you to confirm your ${what}.`, `Confirm it here: ${manage}`];
  }
  const rule = DIRECT_SEND_RULES[input.kind === 'schedule-failing' ? 'staff-account' : 'donor-payment'];
  if (!(await mayContact(deps.db, s.userId, { channel: 'email', address: to, ...rule }))) return;
  const html = lines.map((l) => `<p>${escapeHtml(l).replace(/(https?:\/\/\S+)/g, '<a href="$1">$1</a>')}</p>`).join('');
  await deps.email.send({
    from: deps.emailFrom,
    onBehalfOf: s.userId,
    to,
    subject,
    html,
    text: `${lines.join('\n\n')}\n`,
    headers: {},
    messageId: `giving-${input.kind}-${s.id}-${crypto.randomBytes(6).toString('hex')}@lampstand`,
    meta: { userId: s.userId },
  });
}

// ---- The donor's link: update the card

const manageTokenPattern = /^[A-Za-z0-9_-]{20,64}$/;

/** What the donor's link shows: their recurring gift (never another donor's; the token is 192 random bits). */
export async function scheduleByToken(db: Db, token: string) {
  if (!manageTokenPattern.test(token)) return null;
  const s = await db
    .selectFrom('giftSchedules as gs')
    .innerJoin('users as u', 'u.id', 'gs.userId')
    .select(['gs.id', 'gs.userId', 'gs.frequency', 'gs.status', 'gs.amountCents', 'gs.feeCents', 'gs.nextDate'])
    .select(['gs.donorName', 'gs.lastFailure', 'u.churchName'])
    .where('gs.manageToken', '=', token)
    .executeTakeFirst();
  if (!s) return null;
  const lines = await linesOf(db, s.userId, [s.id]);
  return { ...s, lines: lines.get(s.id) ?? [] };
}

/**
 * Public (the donor's link): a new SetupIntent for the schedule's customer; once the card is saved
 * (setup_intent.succeeded) the schedule is active again and a failed date is charged on the next run.
 */
export async function startCardUpdate(
  deps: { db: Db; payments: PaymentsProvider },
  input: { token: string },
): Promise<{ intentId: string; clientSecret: string; mode: PaymentsProvider['mode'] }> {
  const found = await scheduleByToken(deps.db, input.token);
  if (!found) throw notFound('Recurring gift not found');
  if (found.status === 'cancelled') throw badRequest('This recurring gift is cancelled', 'token');
  const s = await deps.db
    .selectFrom('giftSchedules')
    .select(['id', 'userId', 'stripeCustomerId', 'donorEmail', 'donorName'])
    .where('id', '=', found.id)
    .executeTakeFirstOrThrow();
  const customer =
    s.stripeCustomerId ??
    (
      await deps.payments.createCustomer({
        email: s.donorEmail,
        name: s.donorName,
        idempotencyKey: `gift-schedule-customer-${s.id}`,
      })
    ).id;
  const setup = await deps.payments.createSetupIntent({
    customer,
    idempotencyKey: `gift-schedule-${s.id}-card-${crypto.randomUUID()}`,
    metadata: { churchId: String(s.userId), scheduleId: String(s.id) },
  });
  await deps.db
    .updateTable('giftSchedules')
    .set({
      stripeCustomerId: customer,
      stripeSetupIntentId: setup.id,
      stripeClientSecret: setup.clientSecret,
      updatedAt: new Date(),
    })
    .where('id', '=', s.id)
    .execute();
  return { intentId: setup.id, clientSecret: setup.clientSecret, mode: deps.payments.mode };
}
