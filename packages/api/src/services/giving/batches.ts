import crypto from 'node:crypto';
import { sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import { badRequest, conflict, notFound } from '../../errors.js';
import {
  type addBatchLineSchema,
  type batchDetailSchema,
  type batchSchema,
  type createBatchSchema,
  type reverseBatchLineSchema,
  type updateBatchSchema,
} from '../../schemas/giving.js';
import { formatCents } from '../../shared/giving.js';
import type { NewEvent } from '../../schemas/events.js';
import { recordEvents } from '../events/record.js';
import { giftFunds } from './funds.js';
import { giftEvent } from './gifts.js';

type BatchOut = z.input<typeof batchSchema>;
const BATCH_NOT_FOUND = 'Batch not found';
const COMMITTED = 'This batch is committed: add a correction line with its reason';

function batchesQuery(db: Db, tenantId: number) {
  return db
    .selectFrom('giftBatches as b')
    .selectAll('b')
    .select((eb) => [
      eb
        .selectFrom('gifts as g')
        .select(sql<number>`coalesce(sum(g.amount_cents), 0)::int`.as('t'))
        .whereRef('g.batchId', '=', 'b.id')
        .as('linesTotalCents'),
      eb
        .selectFrom('gifts as g')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('g.batchId', '=', 'b.id')
        .as('lineCount'),
    ])
    .where('b.userId', '=', tenantId);
}

type BatchRow = Awaited<ReturnType<ReturnType<typeof batchesQuery>['executeTakeFirstOrThrow']>>;
const toBatch = (b: BatchRow): BatchOut => ({
  id: b.id,
  batchDate: b.batchDate,
  description: b.description,
  expectedTotalCents: b.expectedTotalCents,
  linesTotalCents: Number(b.linesTotalCents ?? 0),
  lineCount: Number(b.lineCount ?? 0),
  status: b.status,
  committedAt: b.committedAt,
  createdAt: b.createdAt,
});

export async function listBatches(db: Db, tenantId: number): Promise<BatchOut[]> {
  const rows = await batchesQuery(db, tenantId)
    .orderBy('b.batchDate', 'desc')
    .orderBy('b.id', 'desc')
    .limit(1000)
    .execute();
  return rows.map(toBatch);
}

export async function getBatch(
  db: Db,
  tenantId: number,
  { id }: { id: number },
): Promise<z.input<typeof batchDetailSchema>> {
  const b = await batchesQuery(db, tenantId).where('b.id', '=', id).executeTakeFirst();
  if (!b) throw notFound(BATCH_NOT_FOUND);
  const lines = await db
    .selectFrom('gifts as g')
    .innerJoin('giftLines as l', 'l.giftId', 'g.id')
    .innerJoin('funds as f', 'f.id', 'l.fundId')
    .leftJoin('contacts as c', 'c.id', 'g.contactId')
    .select(['g.id', 'g.contactId', 'g.donorName', 'g.amountCents', 'g.method', 'g.checkNumber', 'g.correctionReason'])
    .select(['g.reversalReason', 'g.goodsServices', 'g.goodsServicesCents'])
    .select(['g.status', 'l.fundId', 'f.name as fundName'])
    .where('g.userId', '=', tenantId)
    .where('g.batchId', '=', id)
    .orderBy('g.id')
    .execute();
  return {
    ...toBatch(b),
    lines: lines.map((l) => ({
      id: l.id,
      contactId: l.contactId,
      donorName: l.donorName ?? 'Anonymous cash',
      fundId: l.fundId,
      fundName: l.fundName,
      amountCents: l.amountCents,
      method: l.method,
      checkNumber: l.checkNumber,
      goodsServices: l.goodsServices,
      goodsServicesCents: l.goodsServicesCents,
      correctionReason: l.correctionReason,
      reversalReason: l.reversalReason,
      status: l.status,
    })),
  };
}

export async function createBatch(db: Db, tenantId: number, input: z.output<typeof createBatchSchema>) {
  const row = await db
    .insertInto('giftBatches')
    .values({
      userId: tenantId,
      batchDate: input.batchDate,
      description: input.description ?? null,
      expectedTotalCents: input.expectedTotalCents,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return getBatch(db, tenantId, { id: row.id });
}

/** PATCH an open batch (unsent fields keep their values); a committed one is locked (409). */
export async function updateBatch(db: Db, tenantId: number, input: z.output<typeof updateBatchSchema>) {
  await db.transaction().execute(async (trx) => {
    const b = await lockBatch(trx, tenantId, input.id);
    if (b.status === 'committed') throw conflict('This batch is committed and cannot be changed');
    await trx
      .updateTable('giftBatches')
      .set({
        ...(input.batchDate !== undefined ? { batchDate: input.batchDate } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.expectedTotalCents !== undefined ? { expectedTotalCents: input.expectedTotalCents } : {}),
        updatedAt: new Date(),
      })
      .where('id', '=', b.id)
      .execute();
  });
  return getBatch(db, tenantId, { id: input.id });
}

async function lockBatch(trx: Db, tenantId: number, id: number) {
  const b = await trx
    .selectFrom('giftBatches')
    .selectAll()
    .where('id', '=', id)
    .where('userId', '=', tenantId)
    .forUpdate()
    .executeTakeFirst();
  if (!b) throw notFound(BATCH_NOT_FOUND);
  return b;
}

/** The moment a batch's gifts count: noon UTC on the batch's date (a calendar day in any zone). */
const batchMoment = (date: string) => new Date(`${date}T12:00:00Z`);

/** A batch gift's `donation.*` event (its donor read as now). */
async function batchGiftEvent(
  trx: Db,
  giftId: number,
  type: 'donation.succeeded' | 'donation.refunded' = 'donation.succeeded',
): Promise<NewEvent> {
  const g = await trx.selectFrom('gifts').selectAll().where('id', '=', giftId).executeTakeFirstOrThrow();
  const contact = g.contactId
    ? ((await trx
        .selectFrom('contacts')
        .select(['id', 'firstName', 'lastName', 'email'])
        .where('id', '=', g.contactId)
        .executeTakeFirst()) ?? null)
    : null;
  return giftEvent(trx, g, contact, { type });
}

/**
 * A line: a gift from a contact (or 'Anonymous cash') to one fund by cash, check or other. On an
 * open batch it waits for Commit; on a committed batch it is a correction (its reason required)
 * and counts at once.
 */
export async function addBatchLine(db: Db, tenantId: number, input: z.output<typeof addBatchLineSchema>) {
  await db.transaction().execute(async (trx) => {
    const b = await lockBatch(trx, tenantId, input.id);
    if (b.status === 'committed' && !input.reason) throw conflict(COMMITTED, 'reason');
    await giftFunds(trx, tenantId, { fundIds: [input.fundId], publicOnly: false, field: 'fund' });
    const contact = input.contactId
      ? await trx
          .selectFrom('contacts')
          .select(['id', 'firstName', 'lastName', 'email'])
          .where('id', '=', input.contactId)
          .where('userId', '=', tenantId)
          .executeTakeFirst()
      : null;
    if (input.contactId && !contact) throw notFound('Contact not found');
    const committed = b.status === 'committed';
    const gift = await trx
      .insertInto('gifts')
      .values({
        userId: tenantId,
        contactId: contact?.id ?? null,
        batchId: b.id,
        amountCents: input.amountCents,
        donorName: contact ? `${contact.firstName} ${contact.lastName}`.trim() : null,
        donorEmail: contact?.email ?? null,
        method: input.method,
        checkNumber: input.checkNumber ?? null,
        goodsServices: input.goodsServices ?? null,
        goodsServicesCents: input.goodsServices ? (input.goodsServicesCents ?? null) : null,
        correctionReason: input.reason ?? null,
        status: committed ? 'completed' : 'pending',
        completedAt: committed ? batchMoment(b.batchDate) : null,
        idempotencyKey: `batch-${b.id}-${crypto.randomUUID()}`,
        receiptToken: crypto.randomBytes(24).toString('base64url'),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('giftLines')
      .values({ userId: tenantId, giftId: gift.id, fundId: input.fundId, amountCents: input.amountCents })
      .execute();
    if (committed) await recordEvents(trx, tenantId, [await batchGiftEvent(trx, gift.id)]);
  });
  return getBatch(db, tenantId, { id: input.id });
}

/**
 * Commit: the lines must add up to the counted total; then every line counts (completed, with its
 * `donation.succeeded`), and the batch is locked. Twice at once: the row lock makes the second see
 * it committed (409).
 */
export async function commitBatch(db: Db, tenantId: number, input: { id: number; userId: number | null }) {
  await db.transaction().execute(async (trx) => {
    const b = await lockBatch(trx, tenantId, input.id);
    if (b.status === 'committed') throw conflict('This batch is already committed');
    const lines = await trx
      .selectFrom('gifts')
      .select(['id', 'amountCents'])
      .where('batchId', '=', b.id)
      .where('userId', '=', tenantId)
      .orderBy('id')
      .execute();
    if (lines.length === 0) throw badRequest('Add at least one line before committing', 'lines');
    const total = lines.reduce((s, l) => s + l.amountCents, 0);
    if (total !== b.expectedTotalCents) {
      throw badRequest(
        `The lines add up to ${formatCents(total)}, not the counted ${formatCents(b.expectedTotalCents)}`,
        'expectedTotalCents',
      );
    }
    const now = new Date();
    await trx
      .updateTable('gifts')
      .set({ status: 'completed', completedAt: batchMoment(b.batchDate), updatedAt: now })
      .where('batchId', '=', b.id)
      .where('status', '=', 'pending')
      .execute();
    await trx
      .updateTable('giftBatches')
      .set({ status: 'committed', committedAt: now, committedBy: input.userId, updatedAt: now })
      .where('id', '=', b.id)
      .execute();
    const events: NewEvent[] = [];
    for (const l of lines) events.push(await batchGiftEvent(trx, l.id));
    await recordEvents(trx, tenantId, events);
  });
  return getBatch(db, tenantId, { id: input.id });
}

/**
 * Reverse a committed batch's line (a bounced check, a line entered twice): its gift is
 * refunded — off every total — with the reason, and `donation.refunded` is recorded. The batch keeps
 * the line, marked, so the counted total still reads as it was counted. Twice: 409.
 */
export async function reverseBatchLine(
  db: Db,
  tenantId: number,
  input: z.output<typeof reverseBatchLineSchema>,
): Promise<z.input<typeof batchDetailSchema>> {
  await db.transaction().execute(async (trx) => {
    const b = await lockBatch(trx, tenantId, input.id);
    const line = await trx
      .selectFrom('gifts')
      .select(['id', 'status'])
      .where('id', '=', input.lineId)
      .where('batchId', '=', b.id)
      .where('userId', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    if (!line) throw notFound('Line not found');
    if (b.status !== 'committed')
      throw conflict('Only a committed batch’s lines are reversed: edit the open batch instead');
    if (line.status !== 'completed') throw conflict('This line is already reversed');
    const now = new Date();
    await trx
      .updateTable('gifts')
      .set((eb) => ({
        status: 'refunded',
        refundedAt: now,
        refundedCents: eb.ref('amountCents'),
        reversalReason: input.reason,
        updatedAt: now,
      }))
      .where('id', '=', line.id)
      .execute();
    await recordEvents(trx, tenantId, [await batchGiftEvent(trx, line.id, 'donation.refunded')]);
  });
  return getBatch(db, tenantId, { id: input.id });
}
