import type { Db, PostalAddress, Row } from '@lampstand/db';
import { conflict } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import type { CreatePaymentIntentInput, PaymentsProvider } from '../../providers/payments.js';
import { FREQUENCY_LABELS, type CardFee, type Frequency } from '../../schemas/giving.js';
import { formatCents } from '../../shared/giving.js';
import { MAX_CHARGE_CENTS } from '../../schemas/show-up-values.js';
import type { NewEvent } from '../../schemas/events.js';
import { personOf, PUBLIC_ACTOR, recordEvents } from '../events/record.js';
import { eventSource } from '../sources/labels.js';
import { splitName } from '../landing-pages/signups.js';
import { churchAccount, GIVING_NOT_SET_UP } from './availability.js';

// A gift of the ledger, whatever started it (the giving page, a schedule, a Show Up project): where
// its charge goes, the donor's contact, its `donation.*` events and its completion. Starting one on
// the giving page is prepare-gift.ts.

export interface GivingDeps {
  db: Db;
  payments: PaymentsProvider;
  cardFee: CardFee;
  jobs: JobQueue;
  publicUrl: string;
  /** The clock (tests drive it); the real time by default. */
  now?: () => Date;
}

/** A charge over the card processor's maximum because of the covered fees, said with both figures. */
export const tooLargeWithFees = (totalCents: number) =>
  `With the fees covered the gift is ${formatCents(totalCents)}, more than ${formatCents(MAX_CHARGE_CENTS)}, the most one card payment can be`;

/** A date ('YYYY-MM-DD') in a time zone. */
export function dateIn(now: Date, timeZone: string | null | undefined): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone: timeZone || 'UTC' }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

/** Connect: a destination charge to the church's account with the platform's fee; otherwise none. */
export async function destinationFor(db: Db, payments: PaymentsProvider, tenantId: number, cents: number) {
  if (!payments.connect) return null;
  const account = await churchAccount(db, tenantId);
  if (!account?.chargesEnabled) throw conflict(GIVING_NOT_SET_UP);
  return {
    account: account.stripeAccountId,
    applicationFeeCents: Math.round((cents * payments.platformFeePercent) / 100),
  };
}

/**
 * A pending one-time gift's PaymentIntent (USD, Stripe's idempotency key, where its charge goes),
 * kept on the gift: the same browser key again answers with this intent.
 */
export async function createGiftPayment(
  db: Db,
  payments: PaymentsProvider,
  gift: { id: number; amountCents: number; donorEmail: string | null },
  o: {
    idempotencyKey: string;
    metadata: Record<string, string>;
    description: string;
    destination: CreatePaymentIntentInput['destination'];
    now: Date;
  },
): Promise<{ id: string; clientSecret: string }> {
  const intent = await payments.createPaymentIntent({
    amountCents: gift.amountCents,
    currency: 'usd',
    idempotencyKey: o.idempotencyKey,
    metadata: o.metadata,
    receiptEmail: gift.donorEmail,
    description: o.description.slice(0, 500),
    destination: o.destination,
  });
  await db
    .updateTable('gifts')
    .set({
      stripePaymentId: intent.id,
      stripeClientSecret: intent.clientSecret,
      stripeAccountId: o.destination?.account ?? null,
      platformFeeCents: o.destination?.applicationFeeCents ?? 0,
      updatedAt: o.now,
    })
    .where('id', '=', gift.id)
    .execute();
  return intent;
}

/**
 * The donor's contact: the church's contact with this email (oldest), or a new one made from the
 * gift (not subscribed to anything: a gift is not consent to mail). Returns the event to record.
 */
export async function donorContact(
  trx: Db,
  tenantId: number,
  donor: { name: string | null; email: string | null; address: PostalAddress | null },
): Promise<{
  contact: { id: number; firstName: string; lastName: string; email: string | null; phone: string | null } | null;
  created: NewEvent | null;
}> {
  if (!donor.email) return { contact: null, created: null };
  const existing = await trx
    .selectFrom('contacts')
    .select(['id', 'firstName', 'lastName', 'email', 'phone'])
    .where('userId', '=', tenantId)
    .where('emailLower', '=', donor.email.toLowerCase())
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (existing) return { contact: existing, created: null };
  const name = splitName(donor.name || donor.email.split('@')[0]!);
  const a = donor.address;
  const row = await trx
    .insertInto('contacts')
    .values({
      userId: tenantId,
      ...name,
      email: donor.email,
      tags: ['donor'],
      metadata: JSON.stringify({
        ...(a?.line1 ? { address: [a.line1, a.line2].filter(Boolean).join(', ') } : {}),
        ...(a?.city ? { city: a.city } : {}),
        ...(a?.state ? { state: a.state } : {}),
        ...(a?.postalCode ? { postalCode: a.postalCode } : {}),
        ...(a?.country ? { country: a.country } : {}),
      }),
      emailConsent: 'unsubscribed',
      emailConsentAt: new Date(),
      emailConsentSource: 'giving',
      smsConsent: 'unsubscribed',
    })
    .returning(['id', 'firstName', 'lastName', 'email', 'phone'])
    .executeTakeFirstOrThrow();
  return {
    contact: row,
    created: { type: 'contact.created', contactId: row.id, payload: { person: personOf(row), via: 'donation' } },
  };
}

type GiftRow = Row<'gifts'>;

/**
 * The one builder of `donation.*` events: a gift's fund lines, its project when a line
 * goes to a Show Up project's fund, the donor, the source (as named now).
 */
export async function giftEvent(
  trx: Db,
  gift: Pick<
    GiftRow,
    | 'id'
    | 'userId'
    | 'amountCents'
    | 'currency'
    | 'donorName'
    | 'donorEmail'
    | 'sourceKind'
    | 'sourceId'
    | 'frequency'
    | 'scheduleId'
  >,
  contact: { id: number; firstName: string; lastName: string; email: string | null; phone?: string | null } | null,
  what:
    | { type: 'donation.succeeded' }
    | { type: 'donation.refunded' }
    | { type: 'donation.failed'; reason: string }
    | { type: 'donation.disputed' }
    | { type: 'donation.dispute_closed'; won: boolean },
): Promise<NewEvent> {
  const [lines, source] = await Promise.all([
    trx
      .selectFrom('giftLines as l')
      .innerJoin('funds as f', 'f.id', 'l.fundId')
      .leftJoin('showUpProjects as p', 'p.id', 'f.projectId')
      .select(['f.id', 'f.name', 'l.amountCents', 'p.id as projectId', 'p.title as projectTitle'])
      .where('l.giftId', '=', gift.id)
      .orderBy('l.id')
      .execute(),
    gift.sourceKind && gift.sourceId
      ? eventSource(trx, gift.userId, { kind: gift.sourceKind, value: String(gift.sourceId) })
      : null,
  ]);
  const person = contact
    ? personOf(contact)
    : gift.donorName || gift.donorEmail
      ? { name: gift.donorName || gift.donorEmail!, email: gift.donorEmail }
      : undefined;
  const project = lines.find((l) => l.projectId !== null);
  const common = {
    person,
    ...(project ? { project: { id: project.projectId!, name: project.projectTitle! } } : {}),
    donationId: gift.id,
    gift: { id: gift.id, frequency: gift.frequency as Frequency, scheduleId: gift.scheduleId },
    funds: lines.map((l) => ({ fund: { id: l.id, name: l.name }, amountCents: l.amountCents })),
    amountCents: gift.amountCents,
    currency: gift.currency,
  };
  const contactId = contact?.id ?? null;
  switch (what.type) {
    case 'donation.succeeded':
      return { type: what.type, contactId, payload: { ...common, source } };
    case 'donation.failed':
      return { type: what.type, contactId, payload: { ...common, reason: what.reason.slice(0, 500) } };
    case 'donation.dispute_closed':
      return { type: what.type, contactId, payload: { ...common, won: what.won } };
    default:
      return { type: what.type, contactId, payload: common };
  }
}

/** Label of a frequency for sentences ('Monthly'). */
export const frequencyLabel = (f: string) => FREQUENCY_LABELS[f as Frequency] ?? f;

/**
 * A gift paid (the webhook, a demo payment, or the scheduler's off-session charge): completed, the
 * donor's contact matched or made, and `donation.succeeded` recorded, in the caller's transaction.
 * The gift row must be locked by the caller; a gift already completed (or later) is left alone.
 */
export async function completeGift(
  trx: Db,
  gift: GiftRow,
  opts: { now: Date; customerId?: string | null },
): Promise<boolean> {
  if (gift.status !== 'pending' && gift.status !== 'failed') return false;
  const { contact, created } = await donorContact(trx, gift.userId, {
    name: gift.donorName,
    email: gift.donorEmail,
    address: gift.donorAddress,
  });
  await trx
    .updateTable('gifts')
    .set({
      status: 'completed',
      failureReason: null,
      completedAt: opts.now,
      updatedAt: opts.now,
      contactId: contact?.id ?? gift.contactId,
      ...(opts.customerId ? { stripeCustomerId: opts.customerId } : {}),
    })
    .where('id', '=', gift.id)
    .execute();
  const event = await giftEvent(trx, gift, contact, { type: 'donation.succeeded' });
  await recordEvents(trx, gift.userId, created ? [created, event] : [event], { actor: PUBLIC_ACTOR });
  return true;
}
