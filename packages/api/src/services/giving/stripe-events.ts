import crypto from 'node:crypto';
import type { Db } from '@lampstand/db';
import type Stripe from 'stripe';
import { AppError, notFound } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import type { PaymentsProvider } from '../../providers/payments.js';
import { PUBLIC_ACTOR, recordEvents } from '../events/record.js';
import { completeGift, donorContact, giftEvent } from './gifts.js';
import { markRenewed } from './renewals.js';
import { recordStripeRefund } from './refunded.js';

/** What a church gift's Stripe event came to (the webhook's `outcome`). */
export type GiftOutcome =
  | 'completed'
  | 'failed'
  | 'refunded'
  | 'partial_refund'
  | 'disputed'
  | 'dispute_won'
  | 'dispute_lost'
  | 'schedule_active'
  | 'stale'
  | 'amount_mismatch'
  | 'unknown_payment'
  | 'ignored';

/**
 * A verified Stripe event about a church gift, in the webhook's transaction (which
 * has recorded the event's id: the same event twice never gets here twice). The gift row is locked,
 * and each move is allowed only from the states it comes from, so two events for one payment, or
 * events out of order, count the gift once: a refund before its success leaves it refunded; a
 * dispute closed before it was opened is not opened again.
 */
export async function handleGiftStripeEvent(
  trx: Db,
  deps: { jobs: JobQueue },
  event: Stripe.Event,
  paymentIntentId: string | null,
): Promise<{ outcome: GiftOutcome; giftId?: number; scheduleId?: number }> {
  const now = new Date();
  if (event.type === 'setup_intent.succeeded') return scheduleCardSaved(trx, deps, event.data.object, now);
  if (!paymentIntentId) return { outcome: 'ignored' };
  const gift = await trx
    .selectFrom('gifts')
    .selectAll()
    .where('stripePaymentId', '=', paymentIntentId)
    .forUpdate()
    .executeTakeFirst();
  if (!gift) return { outcome: 'unknown_payment' };
  const giftId = gift.id;
  // The gift's contact; before it is completed (a failure), the church's contact with the donor's
  // email when there is one (none is made for a failed payment).
  const contactOf = async () =>
    gift.contactId || gift.donorEmail
      ? ((await (
          gift.contactId
            ? trx.selectFrom('contacts').where('id', '=', gift.contactId)
            : trx
                .selectFrom('contacts')
                .where('userId', '=', gift.userId)
                .where('emailLower', '=', gift.donorEmail!.toLowerCase())
                .orderBy('id')
                .limit(1)
        )
          .select(['id', 'firstName', 'lastName', 'email', 'phone'])
          .executeTakeFirst()) ?? null)
      : null;
  const record = async (what: Parameters<typeof giftEvent>[3], actor = PUBLIC_ACTOR) => {
    const e = await giftEvent(trx, gift, await contactOf(), what);
    await recordEvents(trx, gift.userId, [e], { actor });
  };
  const system = { kind: 'system' as const, id: null };

  if (event.type === 'payment_intent.succeeded' || event.type === 'payment_intent.payment_failed') {
    const pi = event.data.object;
    if (pi.amount !== gift.amountCents || pi.currency !== gift.currency) return { outcome: 'amount_mismatch', giftId };
    if (event.type === 'payment_intent.succeeded') {
      const customer = typeof pi.customer === 'string' ? pi.customer : (pi.customer?.id ?? null);
      const done = await completeGift(trx, gift, { now, customerId: customer });
      return { outcome: done ? 'completed' : 'stale', giftId };
    }
    if (gift.status !== 'pending') return { outcome: 'stale', giftId };
    const reason = (pi.last_payment_error?.message ?? 'The payment failed').slice(0, 500);
    await trx
      .updateTable('gifts')
      .set({ status: 'failed', failureReason: reason, updatedAt: now })
      .where('id', '=', giftId)
      .execute();
    await record({ type: 'donation.failed', reason });
    return { outcome: 'failed', giftId };
  }
  if (event.type === 'charge.refunded') {
    const charge = event.data.object;
    if (charge.amount !== gift.amountCents || charge.currency !== gift.currency) {
      return { outcome: 'amount_mismatch', giftId };
    }
    // In part, the gift counts less the refund; in full, it is off the totals (and its event says so).
    const outcome = await recordStripeRefund(trx, gift, charge.refunded ? charge.amount : charge.amount_refunded, now);
    if (outcome === 'refunded') await record({ type: 'donation.refunded' }, system);
    return { outcome, giftId };
  }
  if (event.type === 'charge.dispute.created') {
    // A dispute already closed (its closing came first) or a refunded gift is not disputed again.
    if (gift.status !== 'completed' || gift.disputeStatus === 'won' || gift.disputeStatus === 'lost') {
      return { outcome: 'stale', giftId };
    }
    await trx
      .updateTable('gifts')
      .set({ status: 'disputed', disputeStatus: 'open', disputedAt: now, updatedAt: now })
      .where('id', '=', giftId)
      .execute();
    await record({ type: 'donation.disputed' }, system);
    return { outcome: 'disputed', giftId };
  }
  if (event.type === 'charge.dispute.closed') {
    const won = event.data.object.status === 'won';
    if (gift.disputeStatus === 'won' || gift.disputeStatus === 'lost') return { outcome: 'stale', giftId };
    if (gift.status !== 'disputed' && gift.status !== 'completed') return { outcome: 'stale', giftId };
    // Won: back on the totals. Lost: the money went back to the donor's bank; it stays off.
    await trx
      .updateTable('gifts')
      .set({
        status: won ? 'completed' : 'disputed',
        disputeStatus: won ? 'won' : 'lost',
        disputedAt: gift.disputedAt ?? now,
        updatedAt: now,
      })
      .where('id', '=', giftId)
      .execute();
    await record({ type: 'donation.dispute_closed', won }, system);
    return { outcome: won ? 'dispute_won' : 'dispute_lost', giftId };
  }
  return { outcome: 'ignored', giftId };
}

/**
 * A recurring gift's card is saved (or replaced): the schedule is active with it, the donor's
 * contact matched or made, and the charge job asked to look at due dates now.
 */
async function scheduleCardSaved(
  trx: Db,
  deps: { jobs: JobQueue },
  si: Stripe.SetupIntent,
  now: Date,
): Promise<{ outcome: GiftOutcome; scheduleId?: number }> {
  const schedule = await trx
    .selectFrom('giftSchedules')
    .selectAll()
    .where('stripeSetupIntentId', '=', si.id)
    .forUpdate()
    .executeTakeFirst();
  if (!schedule) return { outcome: 'unknown_payment' };
  const paymentMethod = typeof si.payment_method === 'string' ? si.payment_method : (si.payment_method?.id ?? null);
  if (!paymentMethod) return { outcome: 'ignored', scheduleId: schedule.id };
  if (
    schedule.status === 'cancelled' ||
    (schedule.status === 'active' && schedule.stripePaymentMethodId === paymentMethod)
  ) {
    return { outcome: 'stale', scheduleId: schedule.id };
  }
  const customer = typeof si.customer === 'string' ? si.customer : (si.customer?.id ?? schedule.stripeCustomerId);
  const { contact, created } = await donorContact(trx, schedule.userId, {
    name: schedule.donorName,
    email: schedule.donorEmail,
    address: schedule.donorAddress,
  });
  await trx
    .updateTable('giftSchedules')
    .set({
      status: schedule.status === 'paused' ? 'paused' : 'active',
      stripePaymentMethodId: paymentMethod,
      stripeCustomerId: customer,
      contactId: contact?.id ?? schedule.contactId,
      failedAttempts: 0,
      retryAt: null,
      lastFailure: null,
      updatedAt: now,
    })
    .where('id', '=', schedule.id)
    .execute();
  await markRenewed(trx, { tenantId: schedule.userId, scheduleId: schedule.id, contactId: contact?.id ?? null });
  await deps.jobs.send('giving-charge-due', {}, { startAfter: new Date(Date.now() + 1000) });
  if (created) await recordEvents(trx, schedule.userId, [created], { actor: PUBLIC_ACTOR });
  return { outcome: 'schedule_active', scheduleId: schedule.id };
}

/**
 * Demo mode: the visitor's card is "paid" or "saved" by a locally signed payment_intent.succeeded
 * or setup_intent.succeeded that goes through the same verification and handler as Stripe's own.
 */
export async function completeDemoGift(
  deps: { db: Db; payments: PaymentsProvider; deliver: (rawBody: string, signature: string) => Promise<unknown> },
  input: { intentId: string; clientSecret: string },
): Promise<{ status: 'succeeded' }> {
  if (deps.payments.mode !== 'demo') throw new AppError('FORBIDDEN', 'Demo payments are off on this server');
  const base = {
    id: `evt_demo_${crypto.randomBytes(12).toString('hex')}`,
    object: 'event',
    api_version: null,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 0,
    request: { id: null, idempotency_key: null },
  };
  let payload: string;
  if (input.intentId.startsWith('seti_')) {
    const schedule = await deps.db
      .selectFrom('giftSchedules')
      .select(['id', 'stripeClientSecret', 'stripeCustomerId'])
      .where('stripeSetupIntentId', '=', input.intentId)
      .executeTakeFirst();
    if (!schedule || schedule.stripeClientSecret !== input.clientSecret) throw notFound('Payment not found');
    payload = JSON.stringify({
      ...base,
      type: 'setup_intent.succeeded',
      data: {
        object: {
          id: input.intentId,
          object: 'setup_intent',
          status: 'succeeded',
          customer: schedule.stripeCustomerId,
          payment_method: `pm_demo_${crypto.createHash('sha256').update(input.intentId).digest('hex').slice(0, 16)}`,
          usage: 'off_session',
          metadata: { scheduleId: String(schedule.id) },
        },
      },
    });
  } else {
    const gift = await deps.db
      .selectFrom('gifts')
      .select(['id', 'amountCents', 'currency', 'stripeClientSecret'])
      .where('stripePaymentId', '=', input.intentId)
      .executeTakeFirst();
    if (!gift || gift.stripeClientSecret !== input.clientSecret) throw notFound('Payment not found');
    payload = JSON.stringify({
      ...base,
      type: 'payment_intent.succeeded',
      data: {
        object: {
          id: input.intentId,
          object: 'payment_intent',
          amount: gift.amountCents,
          amount_received: gift.amountCents,
          currency: gift.currency,
          status: 'succeeded',
          customer: null,
          metadata: { giftId: String(gift.id) },
        },
      },
    });
  }
  await deps.deliver(payload, deps.payments.signDemoEvent(payload));
  return { status: 'succeeded' };
}
