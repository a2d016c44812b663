import crypto from 'node:crypto';
import type { Db } from '@lampstand/db';
import type { z } from 'zod';
import { conflict, notFound } from '../../errors.js';
import type { PaymentsProvider } from '../../providers/payments.js';
import { type prepareDonationSchema, type ShowUpConfig } from '../../schemas/show-up.js';
import { toCents } from '../../shared/show-up.js';
import type { ShowUpServices } from './config.js';
import { giftProject, projectFund } from './project-gifts.js';
import { GIVING_DISABLED, givingBlock, parseSource } from '../giving/availability.js';
import { createGiftPayment, destinationFor } from '../giving/gifts.js';

// Starting a gift to a project: whether Donate Now can take one, and the pending gift with its
// PaymentIntent. The Stripe events that complete it are in stripe-webhook.ts, the receipt in
// receipts.ts, the owner's list in owner-donations.ts.

type PrepareInput = z.output<typeof prepareDonationSchema>;

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

  const destination = await destinationFor(db, payments, project.userId, amountCents);
  const intent = await createGiftPayment(db, payments, gift, {
    idempotencyKey: `donation-${gift.id}`,
    metadata: { projectId: String(project.id), donationId: String(gift.id) },
    description: `Donation to ${project.title}`,
    destination,
    now: new Date(),
  });
  return {
    donationId: gift.id,
    paymentIntentId: intent.id,
    clientSecret: intent.clientSecret,
    amount: gift.amountCents / 100,
    mode: payments.mode,
  };
}
