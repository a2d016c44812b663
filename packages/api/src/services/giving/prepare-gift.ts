import crypto from 'node:crypto';
import type { PostalAddress } from '@lampstand/db';
import type { z } from 'zod';
import { badRequest, conflict } from '../../errors.js';
import { type prepareGiftSchema, type preparedGiftSchema } from '../../schemas/giving.js';
import { coverFeeCents, formatCents } from '../../shared/giving.js';
import { MAX_CHARGE_CENTS } from '../../schemas/show-up-values.js';
import { givingBlock, parseSource } from './availability.js';
import { giftFunds } from './funds.js';
import { firstChargeDate, lastStartDate } from './dates.js';
import { churchOfHandle } from './giving-church.js';
import { linkRenewal, openRenewal } from './renewals.js';
import { createGiftPayment, dateIn, destinationFor, tooLargeWithFees, type GivingDeps } from './gifts.js';

type PrepareInput = z.output<typeof prepareGiftSchema>;
type Prepared = z.input<typeof preparedGiftSchema>;

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
 * saves the card; our scheduler charges it on each date (decisions.md). The same browser
 * key twice gives the same gift or schedule.
 */
export async function prepareGift(deps: GivingDeps, input: PrepareInput): Promise<Prepared> {
  const { db, payments } = deps;
  const now = deps.now?.() ?? new Date();
  const church = await churchOfHandle(db, input.handle);
  const tenantId = church.userId;
  const blocked = await givingBlock(db, payments, tenantId);
  if (blocked) throw conflict(blocked);
  // A recurring giver's personal link (after a move): their old funds are allowed even off the page.
  const renewal = input.frequency === 'one_time' ? null : await openRenewal(db, tenantId, input.renew, now);
  const funds = await giftFunds(db, tenantId, {
    fundIds: input.lines.map((l) => l.fundId),
    publicOnly: true,
    alsoAllow: renewal?.lines.map((l) => l.fundId),
  });
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
    const intent = await createGiftPayment(db, payments, row, {
      idempotencyKey: `gift-${row.id}`,
      metadata: { churchId: String(tenantId), giftId: String(row.id) },
      description: `Gift to ${church.churchName}: ${describeLines(input.lines, funds)}`,
      destination,
      now,
    });
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
  if (renewal) await linkRenewal(db, tenantId, { renewalId: renewal.id, scheduleId: row.id });
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

function describeLines(lines: { fundId: number; amountCents: number }[], funds: Map<number, { name: string }>): string {
  return lines.map((l) => funds.get(l.fundId)?.name ?? 'Fund').join(', ');
}
