import crypto from 'node:crypto';
import type { Db, Row } from '@lampstand/db';
import type { z } from 'zod';
import { badRequest, notFound } from '../../errors.js';
import type { PaymentsProvider } from '../../providers/payments.js';
import { toCsv } from '../../render/csv.js';
import {
  type CardFee,
  type findSchedulesSchema,
  type RecurringFrequency,
  type scheduleSchema,
  type updateScheduleSchema,
} from '../../schemas/giving.js';
import { coverFeeCents } from '../../shared/giving.js';
import { dateIn, frequencyLabel, tooLargeWithFees } from './gifts.js';
import { giftFunds } from './funds.js';
import { lastStartDate } from './dates.js';
import { MAX_CHARGE_CENTS } from '../../schemas/show-up-values.js';

// Recurring gifts as staff and donors see and change them (charging them: charge-due.ts; their
// emails: schedule-notices.ts).

type Schedule = Row<'giftSchedules'>;

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
