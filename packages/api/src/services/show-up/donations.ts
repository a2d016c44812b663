import crypto from 'node:crypto';
import type { Db } from '@lampstand/db';
import type Stripe from 'stripe';
import type { z } from 'zod';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import type { EmailTransport } from '../../providers/email.js';
import type { PaymentsProvider } from '../../providers/payments.js';
import {
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
import { sourceLabels } from '../sources/labels.js';
import { completeDemoGift, handleGiftStripeEvent, type GiftOutcome } from '../giving/stripe-events.js';
import { DIRECT_SEND_RULES, mayContact } from '../delivery/contact-rule.js';
import { churchAccount, GIVING_DISABLED, GIVING_NOT_SET_UP, givingBlock, parseSource } from '../giving/availability.js';

type PrepareInput = z.output<typeof prepareDonationSchema>;

/** The Stripe events that move money (and are looked up by their PaymentIntent). */
const MONEY_EVENTS = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'charge.refunded',
  'charge.dispute.created',
  'charge.dispute.closed',
];

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

/** A project's own fund (a project gift is a gift with one line to it). */
export async function projectFund(db: Db, projectId: number): Promise<{ id: number }> {
  return db.selectFrom('funds').select('id').where('projectId', '=', projectId).executeTakeFirstOrThrow();
}

/** A gift's project, when one of its lines goes to a project's fund. */
async function giftProject(db: Db, giftId: number) {
  return (
    (await db
      .selectFrom('giftLines as l')
      .innerJoin('funds as f', 'f.id', 'l.fundId')
      .innerJoin('showUpProjects as p', 'p.id', 'f.projectId')
      .select(['p.id', 'p.title'])
      .where('l.giftId', '=', giftId)
      .executeTakeFirst()) ?? null
  );
}

/**
 * Public: a pending project gift and its PaymentIntent (USD, whole cents, an idempotency key,
 * metadata projectId and donationId). A project gift is a gift of the ledger: one
 * one-time card gift with one line to the project's fund. The same browser key twice gives the same
 * gift and PaymentIntent.
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
  const fund = await projectFund(db, project.id);

  const inserted = await db.transaction().execute(async (trx) => {
    const gift = await trx
      .insertInto('gifts')
      .values({
        userId: project.userId,
        amountCents,
        currency: 'usd',
        donorName: anonymous ? null : (input.donorName ?? null),
        donorEmail: anonymous ? null : (input.donorEmail ?? null),
        isAnonymous: anonymous,
        note: input.message ?? null,
        showNote: input.showMessage ?? !anonymous,
        frequency: 'one_time',
        method: 'card',
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
    if (gift)
      await trx
        .insertInto('giftLines')
        .values({ userId: project.userId, giftId: gift.id, fundId: fund.id, amountCents })
        .execute();
    return gift;
  });
  const gift =
    inserted ??
    (await db.selectFrom('gifts').selectAll().where('idempotencyKey', '=', idempotencyKey).executeTakeFirstOrThrow());
  const sameProject = inserted ? project : await giftProject(db, gift.id);
  if (sameProject?.id !== project.id || gift.amountCents !== amountCents) {
    throw conflict('This donation was already prepared with other details. Please start again.');
  }
  if (gift.stripePaymentId && gift.stripeClientSecret) {
    return {
      donationId: gift.id,
      paymentIntentId: gift.stripePaymentId,
      clientSecret: gift.stripeClientSecret,
      amount: gift.amountCents / 100,
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
    idempotencyKey: `donation-${gift.id}`,
    metadata: { projectId: String(project.id), donationId: String(gift.id) },
    receiptEmail: gift.donorEmail,
    description: `Donation to ${project.title}`.slice(0, 500),
    destination,
  });
  await db
    .updateTable('gifts')
    .set({
      stripePaymentId: intent.id,
      stripeClientSecret: intent.clientSecret,
      stripeAccountId: destination?.account ?? null,
      platformFeeCents: destination?.applicationFeeCents ?? 0,
      updatedAt: new Date(),
    })
    .where('id', '=', gift.id)
    .execute();
  return {
    donationId: gift.id,
    paymentIntentId: intent.id,
    clientSecret: intent.clientSecret,
    amount: gift.amountCents / 100,
    mode: payments.mode,
  };
}

export type WebhookOutcome = 'duplicate' | 'account_updated' | GiftOutcome;

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
      // A recurring church gift's saved card (issue 30).
      const r = await handleGiftStripeEvent(trx, deps, event, null);
      return finish(r.outcome, r.scheduleId);
    }
    if (!paymentIntentId || !MONEY_EVENTS.includes(event.type)) return finish('ignored');
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

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const longDate = (d: Date) =>
  d.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

const NO_GOODS_STATEMENT = 'No goods or services were provided in exchange for this contribution.';

/** A project gift in the ledger: the gift, its line to a project's fund, and the project. */
function projectGifts(db: Db) {
  return db
    .selectFrom('gifts as g')
    .innerJoin('giftLines as l', 'l.giftId', 'g.id')
    .innerJoin('funds as f', 'f.id', 'l.fundId')
    .innerJoin('showUpProjects as p', 'p.id', 'f.projectId');
}

/**
 * The receipt's facts: church name and postal address, amount, date, project. Its number is the
 * gift's Show Up id when it was made before the ledger, else the gift's id.
 */
export async function receiptFacts(db: Db, where: { token: string } | { donationId: number }) {
  let q = projectGifts(db)
    .innerJoin('users as u', 'u.id', 'g.userId')
    .leftJoin('churchSettings as s', 's.userId', 'g.userId')
    .select(['g.id', 'g.donorName', 'g.donorEmail', 'g.isAnonymous', 'g.status', 'g.completedAt'])
    .select(['g.receiptUrl', 'g.receiptSentAt', 'g.userId', 'g.stripePaymentId', 'g.showUpDonationId'])
    .select(['l.amountCents', 'p.id as projectId', 'p.title as projectTitle', 'u.churchName', 's.postalAddress'])
    .where('g.status', 'in', ['completed', 'refunded']);
  q = 'token' in where ? q.where('g.receiptToken', '=', where.token) : q.where('g.id', '=', where.donationId);
  const row = await q.executeTakeFirst();
  return row ? { ...row, amount: row.amountCents / 100, receiptNumber: row.showUpDonationId ?? row.id } : null;
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
    `Receipt number: ${f.receiptNumber}`,
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
  const gift = await deps.db.selectFrom('gifts').select('status').where('id', '=', donationId).executeTakeFirst();
  if (gift?.status === 'pending') throw new Error(`Donation ${donationId} is not completed yet`);
  const claimed = await deps.db
    .updateTable('gifts')
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
    await deps.db.updateTable('gifts').set({ receiptSentAt: null }).where('id', '=', donationId).execute();
    throw err;
  }
}

/** Public: what the thank-you page shows for one payment (never the email). */
export async function donationByPayment(
  db: Db,
  { paymentIntent }: { paymentIntent: string },
): Promise<z.input<typeof donationReceiptInfoSchema>> {
  const row = await projectGifts(db)
    .select(['l.amountCents', 'g.createdAt', 'g.donorName', 'g.isAnonymous', 'g.status', 'g.receiptUrl'])
    .select(['p.id as projectId', 'p.title as projectTitle'])
    .where('g.stripePaymentId', '=', paymentIntent)
    .executeTakeFirst();
  if (!row) throw notFound('Donation not found');
  return {
    amount: row.amountCents / 100,
    createdAt: row.createdAt,
    donorName: row.isAnonymous ? null : row.donorName,
    isAnonymous: row.isAnonymous,
    projectId: row.projectId,
    projectTitle: row.projectTitle,
    status: row.status,
    receiptUrl: row.status === 'completed' ? row.receiptUrl : null,
  };
}

/** The owner's Donations tab: every gift to the project with its status and source, and the sum by source. */
export async function ownerDonations(
  db: Db,
  tenantId: number,
  { id }: { id: number },
): Promise<z.input<typeof ownerDonationsSchema>> {
  await ownedProject(db, tenantId, id);
  const rows = await projectGifts(db)
    .select(['g.id', 'g.createdAt', 'l.amountCents', 'g.donorName', 'g.donorEmail', 'g.isAnonymous', 'g.note'])
    .select(['g.status', 'g.failureReason', 'g.sourceKind', 'g.sourceId'])
    .where('p.id', '=', id)
    .where('g.userId', '=', tenantId)
    .orderBy('g.createdAt', 'desc')
    .orderBy('g.id', 'desc')
    .limit(5000)
    .execute();
  const refs = rows.flatMap((r) => (r.sourceKind && r.sourceId ? [{ kind: r.sourceKind, id: r.sourceId }] : []));
  const label = await sourceLabels(db, tenantId, refs);
  const donations: z.input<typeof ownerDonationSchema>[] = rows.map((r) => ({
    id: r.id,
    createdAt: r.createdAt,
    amount: r.amountCents / 100,
    donorName: r.isAnonymous || !r.donorName ? 'Anonymous' : r.donorName,
    donorEmail: r.isAnonymous ? null : r.donorEmail,
    isAnonymous: r.isAnonymous,
    message: r.note,
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
