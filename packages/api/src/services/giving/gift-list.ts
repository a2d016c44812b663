import { sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import type { findGiftsSchema, giftPageSchema, giftSchema } from '../../schemas/giving.js';

type GiftOut = z.input<typeof giftSchema>;

/** Staff: the church's gifts, newest first, filtered by status, fund, contact, schedule and dates, a page at a time. */
export async function findGifts(
  db: Db,
  tenantId: number,
  input: z.output<typeof findGiftsSchema>,
): Promise<z.input<typeof giftPageSchema>> {
  let q = db.selectFrom('gifts as g').where('g.userId', '=', tenantId);
  if (input.status) q = q.where('g.status', '=', input.status);
  if (input.contactId) q = q.where('g.contactId', '=', input.contactId);
  if (input.scheduleId) q = q.where('g.scheduleId', '=', input.scheduleId);
  if (input.from) q = q.where(sql<string>`coalesce(g.completed_at, g.created_at)::date`, '>=', input.from);
  if (input.to) q = q.where(sql<string>`coalesce(g.completed_at, g.created_at)::date`, '<=', input.to);
  if (input.fundId) {
    const fundId = input.fundId;
    q = q.where((eb) =>
      eb.exists(
        eb.selectFrom('giftLines as l').select('l.id').whereRef('l.giftId', '=', 'g.id').where('l.fundId', '=', fundId),
      ),
    );
  }
  const [{ total }, rows] = await Promise.all([
    q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    q
      .selectAll('g')
      .orderBy('g.createdAt', 'desc')
      .orderBy('g.id', 'desc')
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize)
      .execute(),
  ]);
  const ids = rows.map((r) => r.id);
  const lines = ids.length
    ? await db
        .selectFrom('giftLines as l')
        .innerJoin('funds as f', 'f.id', 'l.fundId')
        .select(['l.giftId', 'l.fundId', 'f.name as fundName', 'l.amountCents'])
        .where('l.userId', '=', tenantId)
        .where('l.giftId', 'in', ids)
        .orderBy('l.id')
        .execute()
    : [];
  const byGift = new Map<number, GiftOut['lines']>();
  for (const l of lines) {
    const list = byGift.get(l.giftId) ?? [];
    list.push({ fundId: l.fundId, fundName: l.fundName, amountCents: l.amountCents });
    byGift.set(l.giftId, list);
  }
  return {
    gifts: rows.map((g) => ({
      id: g.id,
      createdAt: g.createdAt,
      completedAt: g.completedAt,
      contactId: g.contactId,
      scheduleId: g.scheduleId,
      chargeDate: g.chargeDate,
      donorName: g.donorName,
      donorEmail: g.donorEmail,
      amountCents: g.amountCents,
      refundedCents: g.refundedCents,
      feeCents: g.feeCents,
      frequency: g.frequency as GiftOut['frequency'],
      method: g.method,
      status: g.status,
      failureReason: g.failureReason,
      note: g.note,
      goodsServices: g.goodsServices,
      goodsServicesCents: g.goodsServicesCents,
      lines: byGift.get(g.id) ?? [],
    })),
    total: Number(total),
    page: input.page,
    pageSize: input.pageSize,
  };
}
