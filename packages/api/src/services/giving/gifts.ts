import crypto from 'node:crypto';
import { sql, type Db, type PostalAddress, type Row } from '@lampstand/db';
import type { z } from 'zod';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import type { PaymentsProvider } from '../../providers/payments.js';
import {
  coverFeeCents,
  formatCents,
  FREQUENCY_LABELS,
  type CardFee,
  type Frequency,
  type prepareGiftSchema,
  type preparedGiftSchema,
} from '../../schemas/giving.js';
import { MAX_CHARGE_CENTS } from '../../schemas/show-up-values.js';
import type { NewEvent } from '../../schemas/events.js';
import { personOf, PUBLIC_ACTOR, recordEvents } from '../events/record.js';
import { eventSource } from '../sources/labels.js';
import { splitName } from '../landing-pages/signups.js';
import { churchAccount, givingBlock, parseSource } from './availability.js';
import { giftFunds } from './funds.js';
import { firstChargeDate, lastStartDate } from './dates.js';

type PrepareInput = z.output<typeof prepareGiftSchema>;
type Prepared = z.input<typeof preparedGiftSchema>;

export interface GivingDeps {
  db: Db;
  payments: PaymentsProvider;
  cardFee: CardFee;
  jobs: JobQueue;
  publicUrl: string;
  /** The clock (tests drive it); the real time by default. */
  now?: () => Date;
}

export const CHURCH_NOT_FOUND = 'Church not found';

/** A charge over the card processor's maximum because of the covered fees, said with both figures. */
export const tooLargeWithFees = (totalCents: number) =>
  `With the fees covered the gift is ${formatCents(totalCents)}, more than ${formatCents(MAX_CHARGE_CENTS)}, the most one card payment can be`;

/** The church of a public handle (the giving page's and prepare's). */
export async function churchOfHandle(db: Db, handle: string) {
  const church = await db
    .selectFrom('churchProfiles as cp')
    .innerJoin('users as u', 'u.id', 'cp.userId')
    .leftJoin('churchSettings as s', 's.userId', 'cp.userId')
    .select(['cp.userId', 'cp.handle', 'u.churchName', 's.timeZone'])
    .where('cp.handle', '=', handle.toLowerCase())
    .executeTakeFirst();
  if (!church) throw notFound(CHURCH_NOT_FOUND);
  return church;
}

/** A date ('YYYY-MM-DD') in a time zone. */
export function dateIn(now: Date, timeZone: string | null | undefined): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone: timeZone || 'UTC' }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

/** The church's today, in its own time zone. */
export async function churchToday(db: Db, tenantId: number, now: Date): Promise<string> {
  const s = await db.selectFrom('churchSettings').select('timeZone').where('userId', '=', tenantId).executeTakeFirst();
  return dateIn(now, s?.timeZone);
}

/** The public funds a donor may choose (active and public), General first. */
export async function publicFunds(db: Db, tenantId: number) {
  return db
    .selectFrom('funds')
    .select(['id', 'name', 'description'])
    .where('userId', '=', tenantId)
    .where('status', '=', 'active')
    .where('isPublic', '=', true)
    .orderBy(sql`name = 'General'`, 'desc')
    .orderBy('name')
    .execute();
}

const cleanAddress = (a: PrepareInput['donor']['address']): PostalAddress | null => {
  if (!a) return null;
  const out: PostalAddress = {};
  for (const k of ['line1', 'line2', 'city', 'state', 'postalCode', 'country'] as const) {
    if (a[k]) out[k] = a[k];
  }
  return Object.keys(out).length ? out : null;
};

/**
 * Public: start a gift on the church's giving page. One time: a pending gift, its lines and a
 * PaymentIntent. Recurring: a pending schedule, its lines, a Stripe customer and a SetupIntent that
 * saves the card; our scheduler charges it on each date (decisions.md, issue 30). The same browser
 * key twice gives the same gift or schedule.
 */
export async function prepareGift(deps: GivingDeps, input: PrepareInput): Promise<Prepared> {
  const { db, payments } = deps;
  const now = deps.now?.() ?? new Date();
  const church = await churchOfHandle(db, input.handle);
  const tenantId = church.userId;
  const blocked = await givingBlock(db, payments, tenantId);
  if (blocked) throw conflict(blocked);
  const funds = await giftFunds(db, tenantId, { fundIds: input.lines.map((l) => l.fundId), publicOnly: true });
  const today = dateIn(now, church.timeZone);
  const startDate = input.startDate ?? today;
  if (startDate < today) throw badRequest('Start date cannot be in the past', 'startDate');
  if (startDate > lastStartDate(today)) throw badRequest('Start date must be within a year from today', 'startDate');
  if (input.frequency === 'one_time' && startDate !== today) {
    throw badRequest('A one-time gift is given today: leave the start date empty', 'startDate');
  }
  const linesCents = input.lines.reduce((sum, l) => sum + l.amountCents, 0);
  if (input.amountCents !== undefined && input.amountCents !== linesCents) {
    throw badRequest(
      `The amounts add up to ${formatCents(linesCents)}, not ${formatCents(input.amountCents)}`,
      'amountCents',
    );
  }
  const feeCents = input.coverFees ? coverFeeCents(linesCents, deps.cardFee) : 0;
  const totalCents = linesCents + feeCents;
  if (totalCents > MAX_CHARGE_CENTS) throw badRequest(tooLargeWithFees(totalCents), 'coverFees');
  const source = parseSource(input.source);
  const idempotencyKey = input.idempotencyKey ?? crypto.randomUUID();
  const address = cleanAddress(input.donor.address);
  const destination = await destinationFor(db, payments, tenantId, totalCents);
  const common = {
    userId: tenantId,
    donorName: input.donor.name,
    donorEmail: input.donor.email,
    donorAddress: address ? JSON.stringify(address) : null,
    note: input.note ?? null,
    feeCents,
    idempotencyKey,
    isDemo: payments.mode === 'demo',
    sourceKind: source?.kind ?? null,
    sourceId: source?.id ?? null,
  };
  const out = { linesCents, feeCents, totalCents, frequency: input.frequency, startDate, mode: payments.mode };

  if (input.frequency === 'one_time') {
    const gift = await db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('gifts')
        .values({
          ...common,
          amountCents: totalCents,
          frequency: 'one_time',
          receiptToken: crypto.randomBytes(24).toString('base64url'),
        })
        .onConflict((oc) => oc.column('idempotencyKey').doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!inserted) return null;
      await trx
        .insertInto('giftLines')
        .values(
          input.lines.map((l) => ({
            userId: tenantId,
            giftId: inserted.id,
            fundId: l.fundId,
            amountCents: l.amountCents,
          })),
        )
        .execute();
      return inserted;
    });
    const row =
      gift ??
      (await db.selectFrom('gifts').selectAll().where('idempotencyKey', '=', idempotencyKey).executeTakeFirstOrThrow());
    if (row.userId !== tenantId || row.amountCents !== totalCents || row.scheduleId !== null) {
      throw conflict('This gift was already prepared with other details. Please start again.');
    }
    if (row.stripePaymentId && row.stripeClientSecret) {
      return {
        ...out,
        kind: 'payment',
        giftId: row.id,
        scheduleId: null,
        intentId: row.stripePaymentId,
        clientSecret: row.stripeClientSecret,
      };
    }
    const intent = await payments.createPaymentIntent({
      amountCents: totalCents,
      currency: 'usd',
      idempotencyKey: `gift-${row.id}`,
      metadata: { churchId: String(tenantId), giftId: String(row.id) },
      receiptEmail: row.donorEmail,
      description: `Gift to ${church.churchName}: ${describeLines(input.lines, funds)}`.slice(0, 500),
      destination,
    });
    await db
      .updateTable('gifts')
      .set({
        stripePaymentId: intent.id,
        stripeClientSecret: intent.clientSecret,
        stripeAccountId: destination?.account ?? null,
        platformFeeCents: destination?.applicationFeeCents ?? 0,
        updatedAt: now,
      })
      .where('id', '=', row.id)
      .execute();
    return {
      ...out,
      kind: 'payment',
      giftId: row.id,
      scheduleId: null,
      intentId: intent.id,
      clientSecret: intent.clientSecret,
    };
  }

  const frequency = input.frequency;
  const schedule = await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('giftSchedules')
      .values({
        ...common,
        donorName: input.donor.name,
        donorEmail: input.donor.email,
        frequency,
        startDate,
        nextDate: firstChargeDate(frequency, startDate),
        amountCents: linesCents,
        coverFees: input.coverFees,
        manageToken: crypto.randomBytes(24).toString('base64url'),
      })
      .onConflict((oc) => oc.column('idempotencyKey').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!inserted) return null;
    await trx
      .insertInto('giftScheduleLines')
      .values(
        input.lines.map((l) => ({
          userId: tenantId,
          scheduleId: inserted.id,
          fundId: l.fundId,
          amountCents: l.amountCents,
        })),
      )
      .execute();
    return inserted;
  });
  const row =
    schedule ??
    (await db
      .selectFrom('giftSchedules')
      .selectAll()
      .where('idempotencyKey', '=', idempotencyKey)
      .executeTakeFirstOrThrow());
  if (row.userId !== tenantId || row.amountCents !== linesCents) {
    throw conflict('This gift was already prepared with other details. Please start again.');
  }
  if (row.stripeSetupIntentId && row.stripeClientSecret) {
    return {
      ...out,
      kind: 'setup',
      giftId: null,
      scheduleId: row.id,
      intentId: row.stripeSetupIntentId,
      clientSecret: row.stripeClientSecret,
    };
  }
  const customer = await payments.createCustomer({
    email: row.donorEmail,
    name: row.donorName,
    idempotencyKey: `gift-schedule-customer-${row.id}`,
  });
  const setup = await payments.createSetupIntent({
    customer: customer.id,
    idempotencyKey: `gift-schedule-${row.id}`,
    metadata: { churchId: String(tenantId), scheduleId: String(row.id) },
  });
  await db
    .updateTable('giftSchedules')
    .set({
      stripeCustomerId: customer.id,
      stripeSetupIntentId: setup.id,
      stripeClientSecret: setup.clientSecret,
      stripeAccountId: destination?.account ?? null,
      updatedAt: now,
    })
    .where('id', '=', row.id)
    .execute();
  return {
    ...out,
    kind: 'setup',
    giftId: null,
    scheduleId: row.id,
    intentId: setup.id,
    clientSecret: setup.clientSecret,
  };
}

/** Connect: a destination charge to the church's account with the platform's fee; otherwise none. */
export async function destinationFor(db: Db, payments: PaymentsProvider, tenantId: number, cents: number) {
  if (!payments.connect) return null;
  const account = await churchAccount(db, tenantId);
  if (!account?.chargesEnabled) throw conflict('Online giving is not set up yet for this church.');
  return {
    account: account.stripeAccountId,
    applicationFeeCents: Math.round((cents * payments.platformFeePercent) / 100),
  };
}

function describeLines(lines: { fundId: number; amountCents: number }[], funds: Map<number, { name: string }>): string {
  return lines.map((l) => funds.get(l.fundId)?.name ?? 'Fund').join(', ');
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
