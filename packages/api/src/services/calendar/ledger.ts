import crypto from 'node:crypto';
import { sql, type Db } from '@lampstand/db';
import { conflict } from '../../errors.js';
import { givingBlock } from '../giving/availability.js';
import { createGiftPayment, destinationFor } from '../giving/gifts.js';
import { nowOf, type CalendarDeps } from './deps.js';

// A registration's fee is an entry of the one ledger: a gift of kind 'registration' (goods
// received, not deductible: statements leave it out), its one line to the church's 'Event
// registrations' fund (made when first needed, not offered on the giving page), paid through the
// same PaymentIntents and webhook as gifts.

export const REGISTRATION_FUND = 'Event registrations';

/** The church's fund for registration fees. */
export async function registrationFund(trx: Db, tenantId: number): Promise<number> {
  const find = () =>
    trx
      .selectFrom('funds')
      .select('id')
      .where('userId', '=', tenantId)
      .where('projectId', 'is', null)
      .where(sql<boolean>`lower(name) = lower(${REGISTRATION_FUND})`)
      .executeTakeFirst();
  const have = await find();
  if (have) return have.id;
  await sql`
    insert into funds (user_id, name, description, is_public)
    values (${tenantId}, ${REGISTRATION_FUND}, 'Fees paid to register for events (not tax-deductible gifts).', false)
    on conflict (user_id, lower(name)) where project_id is null do nothing`.execute(trx);
  return (await find())!.id;
}

/** Refused before any seat is taken when the church cannot take card payments. */
export async function assertCanTakePayments(deps: CalendarDeps, tenantId: number): Promise<void> {
  const blocked = await givingBlock(deps.db, deps.payments, tenantId);
  if (blocked) throw conflict(blocked.replace('Online giving is', 'Card payments are'));
}

/** The registration's pending ledger entry and its line, in the caller's transaction. */
export async function openRegistrationGift(
  trx: Db,
  deps: CalendarDeps,
  reg: { id: number; userId: number; name: string; email: string; totalCents: number; contactId: number | null },
  eventTitle: string,
): Promise<number> {
  const fundId = await registrationFund(trx, reg.userId);
  const gift = await trx
    .insertInto('gifts')
    .values({
      userId: reg.userId,
      kind: 'registration',
      amountCents: reg.totalCents,
      donorName: reg.name,
      donorEmail: reg.email,
      contactId: reg.contactId,
      goodsServices: `Registration: ${eventTitle}`.slice(0, 500),
      goodsServicesCents: reg.totalCents,
      idempotencyKey: `registration-${reg.userId}-${reg.id}-${crypto.randomBytes(6).toString('hex')}`,
      isDemo: deps.payments.mode === 'demo',
      receiptToken: crypto.randomBytes(24).toString('base64url'),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('giftLines')
    .values({ userId: reg.userId, giftId: gift.id, fundId, amountCents: reg.totalCents })
    .execute();
  await trx.updateTable('calendarRegistrations').set({ giftId: gift.id }).where('id', '=', reg.id).execute();
  return gift.id;
}

/**
 * The PaymentIntent of a held registration (after the commit that held its seats); the same
 * registration asked again gets the same intent.
 */
export async function registrationPayment(
  deps: CalendarDeps,
  reg: { id: number; userId: number; giftId: number; holdExpiresAt: Date },
  eventTitle: string,
) {
  const gift = await deps.db
    .selectFrom('gifts')
    .select(['id', 'amountCents', 'donorEmail', 'stripePaymentId', 'stripeClientSecret'])
    .where('id', '=', reg.giftId)
    .executeTakeFirstOrThrow();
  const out = {
    mode: deps.payments.mode,
    publishableKey: deps.payments.publishableKey,
    holdExpiresAt: reg.holdExpiresAt,
  };
  if (gift.stripePaymentId && gift.stripeClientSecret) {
    return { ...out, intentId: gift.stripePaymentId, clientSecret: gift.stripeClientSecret };
  }
  const destination = await destinationFor(deps.db, deps.payments, reg.userId, gift.amountCents);
  const intent = await createGiftPayment(deps.db, deps.payments, gift, {
    idempotencyKey: `registration-${reg.userId}-${reg.id}-${gift.id}`,
    metadata: { churchId: String(reg.userId), registrationId: String(reg.id), giftId: String(gift.id) },
    description: `Registration: ${eventTitle}`,
    destination,
    now: nowOf(deps),
  });
  return { ...out, intentId: intent.id, clientSecret: intent.clientSecret };
}
