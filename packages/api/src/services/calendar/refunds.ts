import type { Db } from '@lampstand/db';
import { cappedExponential } from '../background/claim.js';
import { drainLocked } from '../background/locked.js';
import type { CalendarDeps } from './deps.js';

// Refunds a registration is owed (`refund_due_cents`): a cancellation's, or a payment that came
// after its seats were gone. Each is taken with the claim primitive's locked half and sent to the
// payment processor under an idempotency key naming what was refunded before, so a retry never
// refunds twice; a failure waits its back-off and is tried again.

const backoff = cappedExponential({ firstMs: 60_000, maxMs: 6 * 3_600_000, maxAttempts: 1_000_000 });

interface Due {
  id: number;
  userId: number;
  giftId: number | null;
  refundDueCents: number;
  refundedCents: number;
  refundAttempts: number;
}

async function refundOne(trx: Db, deps: CalendarDeps, r: Due, now: Date): Promise<'refunded' | 'failed'> {
  const gift = r.giftId
    ? await trx
        .selectFrom('gifts')
        .select(['id', 'amountCents', 'stripePaymentId', 'status'])
        .where('id', '=', r.giftId)
        .forUpdate()
        .executeTakeFirst()
    : undefined;
  const payable = gift && gift.stripePaymentId && gift.status !== 'refunded';
  const cents = payable ? Math.min(r.refundDueCents, gift.amountCents - r.refundedCents) : 0;
  if (cents > 0) {
    try {
      await deps.payments.refund({
        paymentIntentId: gift!.stripePaymentId!,
        amountCents: cents,
        idempotencyKey: `registration-refund-${r.id}-${r.refundedCents}`,
        metadata: { churchId: String(r.userId), registrationId: String(r.id) },
      });
    } catch (err) {
      const wait = backoff(r.refundAttempts + 1) ?? 3_600_000;
      await trx
        .updateTable('calendarRegistrations')
        .set({
          refundAttempts: r.refundAttempts + 1,
          refundRetryAt: new Date(now.getTime() + wait),
          refundError: (err instanceof Error ? err.message : String(err)).slice(0, 500),
        })
        .where('id', '=', r.id)
        .execute();
      return 'failed';
    }
  }
  const refunded = r.refundedCents + cents;
  await trx
    .updateTable('calendarRegistrations')
    .set({ refundDueCents: 0, refundedCents: refunded, refundError: null, refundRetryAt: null, updatedAt: now })
    .where('id', '=', r.id)
    .execute();
  if (gift && cents > 0) {
    // The ledger's entry says what went back: in part, it still counts less the refund; in full,
    // it is refunded (off every total).
    const full = refunded >= gift.amountCents;
    await trx
      .updateTable('gifts')
      .set({
        refundedCents: Math.min(refunded, gift.amountCents),
        ...(full ? { status: 'refunded' as const, refundedAt: now } : {}),
        updatedAt: now,
      })
      .where('id', '=', gift.id)
      .execute();
  }
  return 'refunded';
}

/** Every refund due now (or only registration `only`'s): sent, or left for a retry. */
export async function settleRefunds(
  deps: CalendarDeps,
  o: { now: Date; only?: number },
): Promise<{ refunded: number; failed: number }> {
  const outs = await drainLocked(deps.db, {
    due: (trx) => {
      let q = trx
        .selectFrom('calendarRegistrations')
        .select(['id', 'userId', 'giftId', 'refundDueCents', 'refundedCents', 'refundAttempts'])
        .where('refundDueCents', '>', 0)
        .where((eb) => eb.or([eb('refundRetryAt', 'is', null), eb('refundRetryAt', '<=', o.now)]))
        .orderBy('id');
      if (o.only !== undefined) q = q.where('id', '=', o.only);
      return q;
    },
    once: { column: 'id', id: (r) => r.id },
    limit: 10,
    work: async (trx, rows) => {
      let refunded = 0;
      let failed = 0;
      for (const r of rows) {
        if ((await refundOne(trx, deps, r, o.now)) === 'refunded') refunded++;
        else failed++;
      }
      return { refunded, failed };
    },
  });
  return outs.reduce((a, b) => ({ refunded: a.refunded + b.refunded, failed: a.failed + b.failed }), {
    refunded: 0,
    failed: 0,
  });
}
