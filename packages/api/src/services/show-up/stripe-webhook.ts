import type { Db } from '@lampstand/db';
import type Stripe from 'stripe';
import { badRequest } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import type { PaymentsProvider } from '../../providers/payments.js';
import { invalidateShowUpLists } from './project-list.js';
import { giftProject } from './project-gifts.js';
import { completeDemoGift, handleGiftStripeEvent, type GiftOutcome } from '../giving/stripe-events.js';
import { handleRegistrationStripeEvent, type RegistrationPaymentOutcome } from '../calendar/paid.js';

/** The Stripe events that move money (and are looked up by their PaymentIntent). */
const MONEY_EVENTS = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'charge.refunded',
  'charge.dispute.created',
  'charge.dispute.closed',
];

export type WebhookOutcome = 'duplicate' | 'account_updated' | GiftOutcome | RegistrationPaymentOutcome;

export interface StripeEventDeps {
  db: Db;
  /** The receipt is a 'donation-receipt' job, queued in the transaction that completes the gift. */
  jobs: JobQueue;
  publicUrl: string;
}

/** How often pg-boss tries a receipt again (with backoff) while the mail server refuses it. */
const RECEIPT_RETRIES = 8;

function paymentIntentOf(event: Stripe.Event): string | null {
  const obj = event.data.object as { object?: string; id?: string; payment_intent?: string | { id: string } | null };
  if (obj.object === 'payment_intent') return obj.id ?? null;
  if (obj.object === 'charge' || obj.object === 'dispute') {
    const pi = obj.payment_intent;
    return typeof pi === 'string' ? pi : (pi?.id ?? null);
  }
  return null;
}

/** The outcomes that move a project's raised amount or supporters. */
const MOVES_TOTALS: WebhookOutcome[] = ['completed', 'refunded', 'disputed', 'dispute_won', 'dispute_lost'];

/**
 * A project gift just completed: its receipt page's address, and the donor's receipt queued before
 * the commit, so a gift is never completed without its receipt job; should the commit fail, the job
 * finds the gift not completed and does nothing (Stripe sends the event again).
 */
async function projectGiftCompleted(trx: Db, deps: StripeEventDeps, giftId: number): Promise<void> {
  const gift = await trx.selectFrom('gifts').select('receiptToken').where('id', '=', giftId).executeTakeFirstOrThrow();
  await trx
    .updateTable('gifts')
    .set({ receiptUrl: `${deps.publicUrl}/show-up/receipts/${gift.receiptToken}` })
    .where('id', '=', giftId)
    .execute();
  await deps.jobs.send(
    'donation-receipt',
    { donationId: giftId },
    { retryLimit: RECEIPT_RETRIES, startAfter: new Date(Date.now() + 1000) },
  );
}

/**
 * One verified Stripe event, exactly once: its id is recorded in the same transaction that moves
 * the gift, and the gift row is locked (handleGiftStripeEvent), so the same event twice or two
 * events for one payment, even at once, count a gift once. A project gift is a gift: its success,
 * failure, refund and dispute are the ledger's, and the project's raised amount, read from the
 * ledger, moves with them.
 */
async function handleStripeEvent(
  deps: StripeEventDeps,
  event: Stripe.Event,
): Promise<{ outcome: WebhookOutcome; donationId?: number }> {
  const paymentIntentId = paymentIntentOf(event);
  const result = await deps.db.transaction().execute(async (trx) => {
    const fresh = await trx
      .insertInto('stripeWebhookEvents')
      .values({ eventId: event.id, type: event.type, paymentIntentId, outcome: 'processing' })
      .onConflict((oc) => oc.column('eventId').doNothing())
      .returning('eventId')
      .executeTakeFirst();
    if (!fresh) return { outcome: 'duplicate' as const, donationId: undefined, project: false };

    const finish = async (outcome: WebhookOutcome, donationId?: number, project?: boolean) => {
      await trx.updateTable('stripeWebhookEvents').set({ outcome }).where('eventId', '=', event.id).execute();
      return { outcome, donationId, project };
    };

    if (event.type === 'account.updated') {
      const account = event.data.object;
      await trx
        .updateTable('churchStripeAccounts')
        .set({
          chargesEnabled: !!account.charges_enabled,
          detailsSubmitted: !!account.details_submitted,
          updatedAt: new Date(),
        })
        .where('stripeAccountId', '=', account.id)
        .execute();
      return finish('account_updated');
    }
    if (event.type === 'setup_intent.succeeded') {
      // A recurring church gift's saved card.
      const r = await handleGiftStripeEvent(trx, deps, event, null);
      return finish(r.outcome, r.scheduleId);
    }
    if (!paymentIntentId || !MONEY_EVENTS.includes(event.type)) return finish('ignored');
    // A registration fee (the ledger's goods received): its payment confirms the registration or is
    // refunded; its disputes are the ledger's like a gift's.
    const fee = await trx
      .selectFrom('gifts')
      .selectAll()
      .where('stripePaymentId', '=', paymentIntentId)
      .where('kind', '=', 'registration')
      .forUpdate()
      .executeTakeFirst();
    if (fee && !event.type.startsWith('charge.dispute.')) {
      const r = await handleRegistrationStripeEvent(trx, deps, event, fee);
      return finish(r.outcome, fee.id);
    }
    const r = await handleGiftStripeEvent(trx, deps, event, paymentIntentId);
    const project = r.giftId ? await giftProject(trx, r.giftId) : null;
    if (project && r.outcome === 'completed') await projectGiftCompleted(trx, deps, r.giftId!);
    return finish(r.outcome, r.giftId, !!project);
  });

  if (result.project && MOVES_TOTALS.includes(result.outcome)) invalidateShowUpLists(deps.db);
  return { outcome: result.outcome, donationId: result.donationId };
}

/** A webhook delivery: verify the signature over the raw body, then handle the event once. */
export async function receiveStripeWebhook(
  deps: StripeEventDeps & { payments: PaymentsProvider },
  rawBody: string,
  signature: string | undefined,
): Promise<{ outcome: WebhookOutcome; donationId?: number }> {
  if (deps.payments.mode === 'disabled') throw badRequest('Online giving is not configured');
  let event: Stripe.Event;
  try {
    event = await deps.payments.verifyWebhook(rawBody, signature);
  } catch {
    throw badRequest('Invalid Stripe signature');
  }
  return handleStripeEvent(deps, event);
}

/**
 * Demo mode: the visitor's "payment" becomes a locally signed payment_intent.succeeded that goes
 * through the same verification and handler as Stripe's own events (the ledger's demo payment).
 */
export async function completeDemoPayment(
  deps: StripeEventDeps & { payments: PaymentsProvider },
  input: { paymentIntent: string; clientSecret: string },
): Promise<{ status: 'succeeded' }> {
  return completeDemoGift(
    { db: deps.db, payments: deps.payments, deliver: (raw, signature) => receiveStripeWebhook(deps, raw, signature) },
    { intentId: input.paymentIntent, clientSecret: input.clientSecret },
  );
}
