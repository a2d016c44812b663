import type { Db, Row } from '@lampstand/db';
import type Stripe from 'stripe';
import type { JobQueue } from '../../jobs.js';
import { PUBLIC_ACTOR } from '../events/record.js';
import { recordStripeRefund } from '../giving/refunded.js';
import { recordConfirmed } from './confirmed.js';
import { queueRegistrationNotice } from './deps.js';
import { registrationSeats, takeSeats } from './seats.js';

// A registration fee's Stripe events, in the webhook's transaction (which recorded the event's id).
// Nobody is charged unless confirmed: a payment for a registration still holding its seats confirms
// it; one that arrives after the hold ran out takes the seats again if they are still free, and
// otherwise is refunded in full (`refund_due_cents`, refunds.ts) and the person told.

export type RegistrationPaymentOutcome =
  'completed' | 'late_refund' | 'failed' | 'refunded' | 'partial_refund' | 'stale' | 'amount_mismatch' | 'ignored';

export async function handleRegistrationStripeEvent(
  trx: Db,
  deps: { jobs: Pick<JobQueue, 'send'> },
  event: Stripe.Event,
  gift: Row<'gifts'>,
  now = new Date(),
): Promise<{ outcome: RegistrationPaymentOutcome; registrationId?: number }> {
  if (event.type === 'charge.refunded') {
    return { outcome: await recordStripeRefund(trx, gift, event.data.object.amount_refunded, now) };
  }
  if (event.type !== 'payment_intent.succeeded' && event.type !== 'payment_intent.payment_failed') {
    return { outcome: 'ignored' };
  }
  const pi = event.data.object;
  if (pi.amount !== gift.amountCents || pi.currency !== gift.currency) return { outcome: 'amount_mismatch' };
  const reg = await trx
    .selectFrom('calendarRegistrations')
    .selectAll()
    .where('giftId', '=', gift.id)
    .forUpdate()
    .executeTakeFirst();
  if (event.type === 'payment_intent.payment_failed') {
    if (gift.status !== 'pending') return { outcome: 'stale', registrationId: reg?.id };
    const reason = (pi.last_payment_error?.message ?? 'The payment failed').slice(0, 500);
    await trx
      .updateTable('gifts')
      .set({ status: 'failed', failureReason: reason, updatedAt: now })
      .where('id', '=', gift.id)
      .execute();
    return { outcome: 'failed', registrationId: reg?.id };
  }
  if (gift.status !== 'pending' && gift.status !== 'failed') return { outcome: 'stale', registrationId: reg?.id };
  await trx
    .updateTable('gifts')
    .set({
      status: 'completed',
      failureReason: null,
      completedAt: now,
      updatedAt: now,
      contactId: reg?.contactId ?? gift.contactId,
    })
    .where('id', '=', gift.id)
    .execute();
  if (!reg) return { outcome: 'completed' };
  let confirm = reg.status === 'held' && reg.seatsHeld;
  if (!confirm && reg.status === 'expired') {
    // The hold ran out before the payment came: the seats again, if they are still free.
    const taken = await takeSeats(trx, reg.timeId, await registrationSeats(trx, reg.id));
    confirm = taken.ok;
  }
  if (confirm) {
    await trx
      .updateTable('calendarRegistrations')
      .set({ status: 'confirmed', seatsHeld: true, confirmedAt: now, holdExpiresAt: null, updatedAt: now })
      .where('id', '=', reg.id)
      .execute();
    await queueRegistrationNotice(trx, reg, 'confirmed');
    await recordConfirmed(trx, reg, PUBLIC_ACTOR);
    await deps.jobs.send('registration-deliver', { userId: reg.userId }, { startAfter: new Date(Date.now() + 1000) });
    return { outcome: 'completed', registrationId: reg.id };
  }
  // The seats are gone (or the registration was cancelled meanwhile): the whole payment goes back.
  await trx
    .updateTable('calendarRegistrations')
    .set({ refundDueCents: gift.amountCents - reg.refundedCents, refundRetryAt: null, updatedAt: now })
    .where('id', '=', reg.id)
    .execute();
  await queueRegistrationNotice(trx, reg, 'late_refund');
  await deps.jobs.send('calendar-due', {}, { startAfter: new Date(Date.now() + 1000) });
  await deps.jobs.send('registration-deliver', { userId: reg.userId }, { startAfter: new Date(Date.now() + 1000) });
  return { outcome: 'late_refund', registrationId: reg.id };
}
