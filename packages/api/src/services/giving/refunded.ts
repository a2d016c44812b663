import type { Db, Row } from '@lampstand/db';

/**
 * What Stripe says went back to the donor (a charge's `amount_refunded`: our own refunds, or one
 * made in Stripe's dashboard, in full or in part), written in the one ledger. A gift refunded in
 * part still counts, less what went back (`refunded_cents`); refunded in full, it is off every
 * total. An amount no larger than what the ledger already holds changes nothing ('stale').
 */
export async function recordStripeRefund(
  trx: Db,
  gift: Row<'gifts'>,
  amountRefunded: number,
  now: Date,
): Promise<'refunded' | 'partial_refund' | 'stale'> {
  if (gift.status === 'refunded') return 'stale';
  const cents = Math.min(Math.max(amountRefunded, 0), gift.amountCents);
  const full = cents >= gift.amountCents;
  if (!full && cents <= gift.refundedCents) return 'stale';
  await trx
    .updateTable('gifts')
    .set({ refundedCents: cents, ...(full ? { status: 'refunded' as const, refundedAt: now } : {}), updatedAt: now })
    .where('id', '=', gift.id)
    .execute();
  return full ? 'refunded' : 'partial_refund';
}
