import { sql, tenantDb, type Db } from '@lampstand/db';
import { badRequest, notFound } from '../../errors.js';
import { dateSchema, updateScheduleSchema, type CardFee, type RecurringFrequency } from '../../schemas/giving.js';
import { churchToday } from '../giving/giving-church.js';
import { nextChargeDate } from '../giving/dates.js';
import { listSchedules, updateSchedule } from '../giving/schedules.js';
import { donorStatementPdf, statementsOfDonor } from '../giving/statements.js';
import { churchOf } from '../giving/statements-build.js';
import { renderStatement, type StatementLine } from '../giving/statement-pdf.js';
import type { PortalSession } from './sessions.js';

/**
 * 'My giving' in the members' portal: the gifts and recurring gifts of the session's
 * contacts (the person and their household) and their statements. Changes go through the same
 * `updateSchedule` staff use; any other id answers 'not found'.
 */

export interface PortalGift {
  id: number;
  date: string;
  amountCents: number;
  /** Paid back: a part of a completed gift, or all of a refunded one. */
  refundedCents: number;
  feeCents: number;
  method: 'card' | 'cash' | 'check' | 'other';
  checkNumber: string | null;
  status: string;
  frequency: string;
  donorName: string | null;
  goodsServices: string | null;
  goodsServicesCents: number | null;
  lines: { fundName: string; amountCents: number }[];
}

/** The session's completed (and refunded or disputed) gifts, newest first. */
export async function portalGifts(db: Db, s: PortalSession, opts: { giftId?: number } = {}): Promise<PortalGift[]> {
  if (s.contactIds.length === 0) return [];
  const tdb = tenantDb(db, s.userId);
  const tz =
    (await tdb.selectFrom('churchSettings').select('timeZone').where('userId', '=', s.userId).executeTakeFirst())
      ?.timeZone ?? 'UTC';
  let q = tdb
    .selectFrom('gifts as g')
    .select([
      'g.id',
      'g.amountCents',
      'g.refundedCents',
      'g.feeCents',
      'g.method',
      'g.checkNumber',
      'g.status',
      'g.frequency',
    ])
    .select(['g.donorName', 'g.goodsServices', 'g.goodsServicesCents'])
    .select(sql<string>`to_char(g.completed_at at time zone ${tz}, 'YYYY-MM-DD')`.as('date'))
    .where('g.userId', '=', s.userId)
    .where('g.contactId', 'in', s.contactIds)
    .where('g.status', 'in', ['completed', 'refunded', 'disputed'])
    .where('g.completedAt', 'is not', null);
  if (opts.giftId !== undefined) q = q.where('g.id', '=', opts.giftId);
  const rows = await q.orderBy('g.completedAt', 'desc').orderBy('g.id', 'desc').limit(500).execute();
  if (rows.length === 0) return [];
  const lines = await tdb
    .selectFrom('giftLines as l')
    .innerJoin('funds as f', 'f.id', 'l.fundId')
    .select(['l.giftId', 'f.name as fundName', 'l.amountCents'])
    .where(
      'l.giftId',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('l.id')
    .execute();
  return rows.map((r) => ({
    ...r,
    lines: lines.filter((l) => l.giftId === r.id).map((l) => ({ fundName: l.fundName, amountCents: l.amountCents })),
  }));
}

/** One gift's receipt, or a 404. */
export async function portalGift(db: Db, s: PortalSession, giftId: number): Promise<PortalGift> {
  const [g] = await portalGifts(db, s, { giftId });
  if (!g) throw notFound('Not found');
  return g;
}

/** The session's recurring gifts (not the cancelled ones), with the link to update the card. */
export async function portalSchedules(db: Db, s: PortalSession) {
  if (s.contactIds.length === 0) return [];
  const all = await listSchedules(tenantDb(db, s.userId), s.userId, {});
  const mine = all.filter(
    (x) => x.contactId !== null && s.contactIds.includes(x.contactId) && x.status !== 'cancelled',
  );
  if (mine.length === 0) return [];
  const tokens = await tenantDb(db, s.userId)
    .selectFrom('giftSchedules')
    .select(['id', 'manageToken'])
    .where(
      'id',
      'in',
      mine.map((x) => x.id),
    )
    .execute();
  return mine.map((x) => ({ ...x, manageToken: tokens.find((t) => t.id === x.id)!.manageToken }));
}

/** A recurring gift of the session's, or a 404 (another donor's is the same as none). */
async function mySchedule(db: Db, s: PortalSession, id: number) {
  const row = await tenantDb(db, s.userId)
    .selectFrom('giftSchedules')
    .select(['id', 'contactId', 'status', 'frequency', 'nextDate', 'startDate'])
    .where('id', '=', id)
    .where('userId', '=', s.userId)
    .executeTakeFirst();
  if (!row || row.contactId === null || !s.contactIds.includes(row.contactId) || row.status === 'cancelled')
    throw notFound('Not found');
  return row;
}

export type PortalScheduleChange =
  | { kind: 'pause'; until: string }
  | { kind: 'resume' }
  | { kind: 'skip' }
  | { kind: 'cancel' }
  | { kind: 'frequency'; frequency: RecurringFrequency }
  | { kind: 'lines'; lines: { fundId: number; amountCents: number }[] };

/**
 * The donor changes their recurring gift: pause until a date, resume, skip the next one, cancel,
 * a new frequency, new funds and amounts. Bad input is a 400 naming the field.
 */
export async function changePortalSchedule(
  deps: { db: Db; cardFee: CardFee; now?: () => Date },
  s: PortalSession,
  id: number,
  change: PortalScheduleChange,
): Promise<void> {
  const row = await mySchedule(deps.db, s, id);
  const update = (input: Parameters<typeof updateSchedule>[2]) =>
    updateSchedule(deps, s.userId, input, { by: 'donor' });
  switch (change.kind) {
    case 'pause': {
      const until = dateSchema('Paused until').safeParse(change.until);
      if (!until.success) throw badRequest('Paused until must be a date (YYYY-MM-DD)', 'pausedUntil');
      await update({ id, status: 'paused', pausedUntil: until.data });
      return;
    }
    case 'resume':
      await update({ id, status: 'active' });
      return;
    case 'cancel':
      await update({ id, status: 'cancelled' });
      return;
    case 'frequency':
      await update({ id, frequency: change.frequency });
      return;
    case 'lines':
      // The same checks as the giving page: public funds only, at least $0.50 each, at most ten.
      await update({ id, lines: updateScheduleSchema.shape.lines.unwrap().parse(change.lines) });
      return;
    case 'skip': {
      // The date after the next one; a paused gift skips from where it resumes.
      const today = await churchToday(deps.db, s.userId, deps.now?.() ?? new Date());
      const from = row.nextDate < today ? today : row.nextDate;
      await update({ id, nextDate: nextChargeDate(row.frequency, from, row.startDate) });
      return;
    }
  }
}

/** The session's statements, newest first. */
export const portalStatements = (db: Db, s: PortalSession) => statementsOfDonor(tenantDb(db, s.userId), s.contactIds);

/** One of the session's statements as a PDF, or a 404. */
export async function portalStatementPdf(db: Db, s: PortalSession, statementId: number) {
  const pdf = await donorStatementPdf(tenantDb(db, s.userId), s.contactIds, statementId);
  if (!pdf) throw notFound('Not found');
  return pdf;
}

/**
 * A gift's receipt as a PDF, from the statements' writer: the church, the donor, each fund and the
 * card fee covered, the total and what was received for it. Only the session's own gifts (another
 * person's is a 404).
 */
export async function portalReceiptPdf(db: Db, s: PortalSession, giftId: number) {
  const g = await portalGift(db, s, giftId);
  const church = await churchOf(db, s.userId);
  const line = (fund: string, amountCents: number): StatementLine => ({
    date: g.date,
    fund,
    method: g.method,
    checkNumber: g.checkNumber,
    amountCents,
    giftId: g.id,
    giftCents: g.amountCents,
    goodsServices: g.goodsServices,
    goodsServicesCents: g.goodsServicesCents,
  });
  const pdf = await renderStatement({
    title: 'Gift receipt',
    church,
    donor: { name: g.donorName ?? 'Donor', address: null },
    from: g.date,
    to: g.date,
    lines: [
      ...g.lines.map((l) => line(l.fundName, l.amountCents)),
      ...(g.feeCents ? [{ ...line('Card fee covered', g.feeCents), goodsServices: null }] : []),
    ],
    totalCents: g.amountCents,
  });
  return { fileName: `receipt-${g.date}-${g.id}.pdf`, pdf };
}
