import crypto from 'node:crypto';
import { sql, type Db, type DonationSourceKind, type DonationStatus, type Row } from '@lampstand/db';
import type Stripe from 'stripe';
import type { z } from 'zod';
import { AppError, badRequest, conflict, notFound } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import type { EmailTransport } from '../../providers/email.js';
import type { PaymentsProvider } from '../../providers/payments.js';
import {
  LSRC_PATTERN,
  toCents,
  type donationReceiptInfoSchema,
  type ownerDonationSchema,
  type ownerDonationsSchema,
  type prepareDonationSchema,
  type ShowUpConfig,
} from '../../schemas/show-up.js';
import type { ShowUpServices } from './config.js';
import { invalidateShowUpLists, ownedProject } from './projects.js';
import { escapeHtml } from '../../render/html.js';
import { toCsv } from '../../render/csv.js';
import { eventSource, sourceLabels } from '../sources/labels.js';
import type { NewEvent } from '../../schemas/events.js';
import { personOf, PUBLIC_ACTOR, recordEvent } from '../events/record.js';
import { handleGiftStripeEvent, type GiftOutcome } from '../giving/stripe-events.js';
import { DIRECT_SEND_RULES, mayContact } from '../delivery/contact-rule.js';

type PrepareInput = z.output<typeof prepareDonationSchema>;

const GIVING_NOT_SET_UP = 'Online giving is not set up yet for this church.';
const GIVING_DISABLED =
  'Online giving is not available yet. The site administrator needs to set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.';

/** The Stripe events that move money (and are looked up by their PaymentIntent). */
const MONEY_EVENTS = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'charge.refunded',
  'charge.dispute.created',
  'charge.dispute.closed',
];

/** Later states win: a late or repeated event never moves a donation backwards. */
const RANK: Record<DonationStatus, number> = { pending: 0, failed: 1, completed: 2, refunded: 3 };

/** Can this church take gifts now? (Connect: only once its own Stripe account is ready.) */
export async function givingBlock(db: Db, payments: PaymentsProvider, churchId: number): Promise<string | null> {
  if (payments.mode === 'disabled') return GIVING_DISABLED;
  if (!payments.connect) return null;
  const account = await churchAccount(db, churchId);
  return account?.chargesEnabled ? null : GIVING_NOT_SET_UP;
}

export async function churchAccount(db: Db, churchId: number) {
  return db.selectFrom('churchStripeAccounts').selectAll().where('userId', '=', churchId).executeTakeFirst();
}

/** Public: map tiles, and whether Donate Now can take a gift (for a project, its church's status). */
export async function showUpConfig(
  db: Db,
  showUp: ShowUpServices,
  input: { projectId?: number },
): Promise<ShowUpConfig> {
  let message: string | null = showUp.payments.mode === 'disabled' ? GIVING_DISABLED : null;
  if (!message && input.projectId) {
    const project = await db
      .selectFrom('showUpProjects')
      .select('userId')
      .where('id', '=', input.projectId)
      .executeTakeFirst();
    if (project) message = await givingBlock(db, showUp.payments, project.userId);
  }
  return {
    mapTileUrl: showUp.mapTileUrl,
    mapAttribution: showUp.mapAttribution,
    giving: {
      mode: showUp.payments.mode,
      publishableKey: showUp.payments.publishableKey,
      available: message === null,
      message,
    },
  };
}

export function parseSource(source: string | null | undefined): { kind: DonationSourceKind; id: number } | null {
  const m = source ? LSRC_PATTERN.exec(source) : null;
  if (!m) return null;
  const id = Number(m[2]);
  return id <= 2_147_483_647 ? { kind: m[1] as DonationSourceKind, id } : null;
}

/**
 * Public: a pending donation and its PaymentIntent (USD, whole cents, an idempotency key, metadata
 * projectId and donationId). The same browser key twice gives the same donation and PaymentIntent.
 */
export async function prepareDonation(
  db: Db,
  payments: PaymentsProvider,
  input: PrepareInput,
): Promise<{
  donationId: number;
  paymentIntentId: string;
  clientSecret: string;
  amount: number;
  mode: 'stripe' | 'demo' | 'disabled';
}> {
  const project = await db
    .selectFrom('showUpProjects')
    .select(['id', 'userId', 'title', 'status'])
    .where('id', '=', input.projectId)
    .executeTakeFirst();
  if (!project || project.status !== 'active') throw notFound('Project not found');
  const blocked = await givingBlock(db, payments, project.userId);
  if (blocked) throw conflict(blocked);

  const amountCents = toCents(input.amount);
  const anonymous = input.isAnonymous;
  const source = parseSource(input.source);
  const idempotencyKey = input.idempotencyKey ?? crypto.randomUUID();

  const inserted = await db
    .insertInto('showUpDonations')
    .values({
      userId: project.userId,
      projectId: project.id,
      amount: amountCents / 100,
      amountCents,
      currency: 'usd',
      donorName: anonymous ? null : (input.donorName ?? null),
      donorEmail: anonymous ? null : (input.donorEmail ?? null),
      isAnonymous: anonymous,
      message: input.message ?? null,
      showMessage: input.showMessage ?? !anonymous,
      status: 'pending',
      idempotencyKey,
      isDemo: payments.mode === 'demo',
      sourceKind: source?.kind ?? null,
      sourceId: source?.id ?? null,
      receiptToken: crypto.randomBytes(24).toString('base64url'),
    })
    .onConflict((oc) => oc.column('idempotencyKey').doNothing())
    .returningAll()
    .executeTakeFirst();
  const donation =
    inserted ??
    (await db
      .selectFrom('showUpDonations')
      .selectAll()
      .where('idempotencyKey', '=', idempotencyKey)
      .executeTakeFirstOrThrow());
  if (donation.projectId !== project.id || donation.amountCents !== amountCents) {
    throw conflict('This donation was already prepared with other details. Please start again.');
  }
  if (donation.stripePaymentId && donation.stripeClientSecret) {
    return {
      donationId: donation.id,
      paymentIntentId: donation.stripePaymentId,
      clientSecret: donation.stripeClientSecret,
      amount: donation.amount,
      mode: payments.mode,
    };
  }

  let destination: { account: string; applicationFeeCents: number } | null = null;
  if (payments.connect) {
    const account = await churchAccount(db, project.userId);
    if (!account?.chargesEnabled) throw conflict(GIVING_NOT_SET_UP);
    destination = {
      account: account.stripeAccountId,
      applicationFeeCents: Math.round((amountCents * payments.platformFeePercent) / 100),
    };
  }
  const intent = await payments.createPaymentIntent({
    amountCents,
    currency: 'usd',
    idempotencyKey: `donation-${donation.id}`,
    metadata: { projectId: String(project.id), donationId: String(donation.id) },
    receiptEmail: donation.donorEmail,
    description: `Donation to ${project.title}`.slice(0, 500),
    destination,
  });
  await db
    .updateTable('showUpDonations')
    .set({
      stripePaymentId: intent.id,
      stripeClientSecret: intent.clientSecret,
      stripeAccountId: destination?.account ?? null,
      platformFeeCents: destination?.applicationFeeCents ?? 0,
      updatedAt: new Date(),
    })
    .where('id', '=', donation.id)
    .execute();
  return {
    donationId: donation.id,
    paymentIntentId: intent.id,
    clientSecret: intent.clientSecret,
    amount: donation.amount,
    mode: payments.mode,
  };
}

export type WebhookOutcome =
  | 'duplicate'
  | 'completed'
  | 'failed'
  | 'refunded'
  | 'partial_refund'
  | 'stale'
  | 'amount_mismatch'
  | 'unknown_payment'
  | 'account_updated'
  | 'ignored'
  | GiftOutcome;

export interface StripeEventDeps {
  db: Db;
  /** The receipt is a 'donation-receipt' job, queued in the transaction that completes the gift. */
  jobs: JobQueue;
  publicUrl: string;
}

/** What sending a receipt needs: the email engine's transport and sender. */
export interface ReceiptDeps {
  db: Db;
  email: EmailTransport;
  emailFrom: string;
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

/**
 * A gift's event, in the transaction that moves it: the person is the church's contact with the
 * donor's email (a gift does not create a contact), the project and source named as they are now.
 * A success and a failure are the donor's doing; a refund is the church's (through Stripe).
 */
async function recordDonationEvent(
  trx: Db,
  donation: Pick<
    Row<'showUpDonations'>,
    'id' | 'userId' | 'projectId' | 'amountCents' | 'currency' | 'donorName' | 'donorEmail' | 'sourceKind' | 'sourceId'
  >,
  what: { type: 'donation.succeeded' } | { type: 'donation.refunded' } | { type: 'donation.failed'; reason: string },
): Promise<void> {
  const [project, contact, source] = await Promise.all([
    trx
      .selectFrom('showUpProjects')
      .select(['id', 'title'])
      .where('id', '=', donation.projectId)
      .executeTakeFirstOrThrow(),
    donation.donorEmail
      ? trx
          .selectFrom('contacts')
          .select(['id', 'firstName', 'lastName', 'email', 'phone'])
          .where('userId', '=', donation.userId)
          .where('emailLower', '=', donation.donorEmail.toLowerCase())
          .orderBy('id')
          .limit(1)
          .executeTakeFirst()
      : undefined,
    donation.sourceKind && donation.sourceId
      ? eventSource(trx, donation.userId, { kind: donation.sourceKind, value: String(donation.sourceId) })
      : null,
  ]);
  const person = contact
    ? personOf(contact)
    : donation.donorName || donation.donorEmail
      ? { name: donation.donorName || donation.donorEmail!, email: donation.donorEmail }
      : undefined;
  const common = {
    person,
    project: { id: project.id, name: project.title },
    donationId: donation.id,
    amountCents: donation.amountCents,
    currency: donation.currency,
  };
  const event: NewEvent =
    what.type === 'donation.succeeded'
      ? { type: what.type, contactId: contact?.id, payload: { ...common, source } }
      : what.type === 'donation.failed'
        ? { type: what.type, contactId: contact?.id, payload: { ...common, reason: what.reason.slice(0, 500) } }
        : { type: what.type, contactId: contact?.id, payload: common };
  await recordEvent(trx, donation.userId, event, {
    actor: what.type === 'donation.refunded' ? { kind: 'system', id: null } : PUBLIC_ACTOR,
  });
}

/**
 * One verified Stripe event, exactly once: its id is recorded in the same transaction that moves
 * the donation and the project's totals, and the donation row is locked, so the same event twice
 * or two events for one payment, even at once, count a gift once.
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
    if (!fresh) return { outcome: 'duplicate' as const };

    const finish = async (outcome: WebhookOutcome, donationId?: number) => {
      await trx.updateTable('stripeWebhookEvents').set({ outcome }).where('eventId', '=', event.id).execute();
      return { outcome, donationId };
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
      // A recurring church gift's saved card (issue 30).
      const r = await handleGiftStripeEvent(trx, deps, event, null);
      return finish(r.outcome, r.scheduleId);
    }
    if (!paymentIntentId || !MONEY_EVENTS.includes(event.type)) return finish('ignored');

    const donation = await trx
      .selectFrom('showUpDonations')
      .selectAll()
      .where('stripePaymentId', '=', paymentIntentId)
      .forUpdate()
      .executeTakeFirst();
    if (!donation) {
      // Not a Show Up gift: a gift to a church's funds (issue 30), or none of ours.
      const r = await handleGiftStripeEvent(trx, deps, event, paymentIntentId);
      return finish(r.outcome, r.giftId);
    }
    // Disputes are followed for church gifts (issue 30 §10); a Show Up project's total is unchanged.
    if (event.type.startsWith('charge.dispute.')) return finish('ignored', donation.id);

    const obj = event.data.object as { amount: number; currency: string };
    if (obj.amount !== donation.amountCents || obj.currency !== donation.currency) {
      return finish('amount_mismatch', donation.id);
    }

    const now = new Date();
    if (event.type === 'payment_intent.succeeded') {
      if (RANK[donation.status] >= RANK.completed) return finish('stale', donation.id);
      const pi = event.data.object;
      await trx
        .updateTable('showUpDonations')
        .set({
          status: 'completed',
          failureReason: null,
          completedAt: now,
          updatedAt: now,
          receiptUrl: `${deps.publicUrl}/show-up/receipts/${donation.receiptToken}`,
          stripeCustomerId: typeof pi.customer === 'string' ? pi.customer : (pi.customer?.id ?? null),
        })
        .where('id', '=', donation.id)
        .execute();
      await trx
        .updateTable('showUpProjects')
        .set({
          raisedAmount: sql`raised_amount + ${donation.amount}::numeric`,
          donationsCount: sql`donations_count + 1`,
        })
        .where('id', '=', donation.projectId)
        .execute();
      // Queued before the commit, so a gift is never completed without its receipt job; should the
      // commit fail, the job finds the gift not completed and does nothing (Stripe sends the event again).
      await deps.jobs.send(
        'donation-receipt',
        { donationId: donation.id },
        { retryLimit: RECEIPT_RETRIES, startAfter: new Date(Date.now() + 1000) },
      );
      await recordDonationEvent(trx, donation, { type: 'donation.succeeded' });
      return finish('completed', donation.id);
    }
    if (event.type === 'payment_intent.payment_failed') {
      if (RANK[donation.status] >= RANK.failed) return finish('stale', donation.id);
      const pi = event.data.object;
      await trx
        .updateTable('showUpDonations')
        .set({
          status: 'failed',
          failureReason: (pi.last_payment_error?.message ?? 'The payment failed').slice(0, 500),
          updatedAt: now,
        })
        .where('id', '=', donation.id)
        .execute();
      const reason = pi.last_payment_error?.message ?? 'The payment failed';
      await recordDonationEvent(trx, donation, { type: 'donation.failed', reason });
      return finish('failed', donation.id);
    }
    // charge.refunded: only a full refund takes the gift off the total.
    const charge = event.data.object as Stripe.Charge;
    if (!charge.refunded && charge.amount_refunded < charge.amount) return finish('partial_refund', donation.id);
    if (donation.status === 'refunded') return finish('stale', donation.id);
    await trx
      .updateTable('showUpDonations')
      .set({ status: 'refunded', refundedAt: now, updatedAt: now })
      .where('id', '=', donation.id)
      .execute();
    if (donation.status === 'completed') {
      await trx
        .updateTable('showUpProjects')
        .set({
          raisedAmount: sql`greatest(raised_amount - ${donation.amount}::numeric, 0)`,
          donationsCount: sql`greatest(donations_count - 1, 0)`,
        })
        .where('id', '=', donation.projectId)
        .execute();
    }
    await recordDonationEvent(trx, donation, { type: 'donation.refunded' });
    return finish('refunded', donation.id);
  });

  if (result.outcome === 'completed' || result.outcome === 'refunded') invalidateShowUpLists(deps.db);
  return result;
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
 * through the same verification and handler as Stripe's own events.
 */
export async function completeDemoPayment(
  deps: StripeEventDeps & { payments: PaymentsProvider },
  input: { paymentIntent: string; clientSecret: string },
): Promise<{ status: 'succeeded' }> {
  if (deps.payments.mode !== 'demo') throw new AppError('FORBIDDEN', 'Demo payments are off on this server');
  const donation = await deps.db
    .selectFrom('showUpDonations')
    .select(['id', 'projectId', 'amountCents', 'currency', 'stripeClientSecret', 'status'])
    .where('stripePaymentId', '=', input.paymentIntent)
    .executeTakeFirst();
  if (!donation || donation.stripeClientSecret !== input.clientSecret) throw notFound('Payment not found');
  const payload = JSON.stringify({
    id: `evt_demo_${crypto.randomBytes(12).toString('hex')}`,
    object: 'event',
    api_version: null,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 0,
    request: { id: null, idempotency_key: null },
    type: 'payment_intent.succeeded',
    data: {
      object: {
        id: input.paymentIntent,
        object: 'payment_intent',
        amount: donation.amountCents,
        amount_received: donation.amountCents,
        currency: donation.currency,
        status: 'succeeded',
        customer: null,
        metadata: { projectId: String(donation.projectId), donationId: String(donation.id) },
      },
    },
  });
  await receiveStripeWebhook(deps, payload, deps.payments.signDemoEvent(payload));
  return { status: 'succeeded' };
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const longDate = (d: Date) =>
  d.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

const NO_GOODS_STATEMENT = 'No goods or services were provided in exchange for this contribution.';

/** The receipt's facts: church name and postal address, amount, date, project. */
export async function receiptFacts(db: Db, where: { token: string } | { donationId: number }) {
  let q = db
    .selectFrom('showUpDonations as d')
    .innerJoin('showUpProjects as p', 'p.id', 'd.projectId')
    .innerJoin('users as u', 'u.id', 'd.userId')
    .leftJoin('churchSettings as s', 's.userId', 'd.userId')
    .select(['d.id', 'd.amount', 'd.donorName', 'd.donorEmail', 'd.isAnonymous', 'd.status', 'd.completedAt'])
    .select(['d.receiptUrl', 'd.receiptSentAt', 'd.userId', 'd.stripePaymentId'])
    .select(['p.id as projectId', 'p.title as projectTitle', 'u.churchName', 's.postalAddress'])
    .where('d.status', 'in', ['completed', 'refunded']);
  q = 'token' in where ? q.where('d.receiptToken', '=', where.token) : q.where('d.id', '=', where.donationId);
  return (await q.executeTakeFirst()) ?? null;
}

export function receiptText(f: NonNullable<Awaited<ReturnType<typeof receiptFacts>>>) {
  const date = longDate(f.completedAt ?? new Date());
  const lines = [
    `Donation receipt from ${f.churchName}`,
    f.postalAddress ?? '',
    '',
    `Donor: ${f.isAnonymous || !f.donorName ? 'Anonymous' : f.donorName}`,
    `Amount: ${usd.format(f.amount)}`,
    `Date: ${date}`,
    `Project: ${f.projectTitle}`,
    `Receipt number: ${f.id}`,
    '',
    NO_GOODS_STATEMENT,
  ];
  return { date, lines };
}

/**
 * The 'donation-receipt' job: the donor's receipt through the email engine's transport, sent once
 * (claimed before sending). A gift whose completing transaction has not committed yet, or a mail
 * server that refuses, throws, so pg-boss tries again with backoff; the gift counts either way and
 * the receipt page works meanwhile.
 */
export async function sendDonationReceipt(deps: ReceiptDeps, donationId: number): Promise<void> {
  const donation = await deps.db
    .selectFrom('showUpDonations')
    .select('status')
    .where('id', '=', donationId)
    .executeTakeFirst();
  if (donation?.status === 'pending') throw new Error(`Donation ${donationId} is not completed yet`);
  const claimed = await deps.db
    .updateTable('showUpDonations')
    .set({ receiptSentAt: new Date() })
    .where('id', '=', donationId)
    .where('status', '=', 'completed')
    .where('receiptSentAt', 'is', null)
    .where('donorEmail', 'is not', null)
    .where('isAnonymous', '=', false)
    .returning('id')
    .executeTakeFirst();
  if (!claimed) return;
  const f = await receiptFacts(deps.db, { donationId });
  if (!f || !f.donorEmail) return;
  if (
    !(await mayContact(deps.db, f.userId, {
      channel: 'email',
      address: f.donorEmail,
      ...DIRECT_SEND_RULES['donor-payment'],
    }))
  )
    return;
  const { lines } = receiptText(f);
  const html =
    `<h1 style="font-size:20px">Thank you for your gift to ${escapeHtml(f.projectTitle)}</h1>` +
    lines.map((l) => `<p style="margin:4px 0">${escapeHtml(l)}</p>`).join('') +
    `<p><a href="${escapeHtml(f.receiptUrl ?? '')}">View your receipt</a></p>`;
  try {
    // Outside the delivery engine on purpose: a receipt is transactional mail to the donor who just
    // paid (no church allowance applies), sent once by the claim above from a pg-boss job that
    // retries it.
    await deps.email.send({
      from: deps.emailFrom,
      onBehalfOf: f.userId,
      to: f.donorEmail,
      subject: `Your receipt: ${usd.format(f.amount)} to ${f.projectTitle}`,
      html,
      text: `${lines.join('\n')}\n\nView your receipt: ${f.receiptUrl ?? ''}\n`,
      headers: {},
      messageId: `receipt-${f.id}-${crypto.randomBytes(6).toString('hex')}@lampstand`,
      meta: { userId: f.userId },
    });
  } catch (err) {
    // Not sent: release the claim (receipt_sent_at stays empty); pg-boss tries again.
    await deps.db.updateTable('showUpDonations').set({ receiptSentAt: null }).where('id', '=', donationId).execute();
    throw err;
  }
}

/** Public: what the thank-you page shows for one payment (never the email). */
export async function donationByPayment(
  db: Db,
  { paymentIntent }: { paymentIntent: string },
): Promise<z.input<typeof donationReceiptInfoSchema>> {
  const row = await db
    .selectFrom('showUpDonations as d')
    .innerJoin('showUpProjects as p', 'p.id', 'd.projectId')
    .select([
      'd.amount',
      'd.createdAt',
      'd.donorName',
      'd.isAnonymous',
      'd.projectId',
      'd.status',
      'd.receiptUrl',
      'p.title as projectTitle',
    ])
    .where('d.stripePaymentId', '=', paymentIntent)
    .executeTakeFirst();
  if (!row) throw notFound('Donation not found');
  return {
    amount: row.amount,
    createdAt: row.createdAt,
    donorName: row.isAnonymous ? null : row.donorName,
    isAnonymous: row.isAnonymous,
    projectId: row.projectId,
    projectTitle: row.projectTitle,
    status: row.status,
    receiptUrl: row.status === 'completed' ? row.receiptUrl : null,
  };
}

/** The owner's Donations tab: every gift with its status and source, and the sum by source. */
export async function ownerDonations(
  db: Db,
  tenantId: number,
  { id }: { id: number },
): Promise<z.input<typeof ownerDonationsSchema>> {
  await ownedProject(db, tenantId, id);
  const rows = await db
    .selectFrom('showUpDonations')
    .select([
      'id',
      'createdAt',
      'amount',
      'donorName',
      'donorEmail',
      'isAnonymous',
      'message',
      'status',
      'failureReason',
      'sourceKind',
      'sourceId',
    ])
    .where('projectId', '=', id)
    .where('userId', '=', tenantId)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(5000)
    .execute();
  const refs = rows.flatMap((r) => (r.sourceKind && r.sourceId ? [{ kind: r.sourceKind, id: r.sourceId }] : []));
  const label = await sourceLabels(db, tenantId, refs);
  const donations: z.input<typeof ownerDonationSchema>[] = rows.map((r) => ({
    id: r.id,
    createdAt: r.createdAt,
    amount: r.amount,
    donorName: r.isAnonymous || !r.donorName ? 'Anonymous' : r.donorName,
    donorEmail: r.isAnonymous ? null : r.donorEmail,
    isAnonymous: r.isAnonymous,
    message: r.message,
    status: r.status,
    failureReason: r.failureReason,
    source:
      r.sourceKind && r.sourceId
        ? { kind: r.sourceKind, id: r.sourceId, label: label(r.sourceKind, r.sourceId) }
        : null,
  }));
  const bySource = new Map<
    string,
    { source: z.input<typeof ownerDonationSchema>['source']; cents: number; count: number }
  >();
  let totalCents = 0;
  for (const d of donations) {
    if (d.status !== 'completed') continue;
    const key = d.source ? `${d.source.kind}.${d.source.id}` : 'direct';
    const entry = bySource.get(key) ?? { source: d.source, cents: 0, count: 0 };
    entry.cents += toCents(d.amount);
    entry.count += 1;
    totalCents += toCents(d.amount);
    bySource.set(key, entry);
  }
  const sources = [...bySource.values()]
    .sort((a, b) => b.cents - a.cents)
    .map((e) => ({ source: e.source, total: e.cents / 100, count: e.count }));
  return { donations, sources, totalCompleted: totalCents / 100 };
}

/** The Donations tab as CSV (dates as ISO 8601, text guarded against formulas by the CSV writer). */
export async function exportDonations(db: Db, tenantId: number, { id }: { id: number }) {
  const { donations } = await ownerDonations(db, tenantId, { id });
  const csv = toCsv([
    ['Date', 'Amount (USD)', 'Donor', 'Email', 'Status', 'Source', 'Message'],
    ...donations.map((d) => [
      new Date(d.createdAt),
      d.amount.toFixed(2),
      d.donorName,
      d.donorEmail,
      d.status,
      d.source?.label ?? 'Direct',
      d.message,
    ]),
  ]);
  return { fileName: `donations-project-${id}.csv`, csv };
}
