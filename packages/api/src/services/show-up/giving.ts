import type { Db } from '@lampstand/db';
import { badRequest } from '../../errors.js';
import type { PaymentsProvider } from '../../providers/payments.js';

type GivingStatus = {
  mode: 'stripe' | 'demo' | 'disabled';
  connect: boolean;
  status: 'not_connected' | 'pending' | 'ready';
  accountId: string | null;
  platformFeePercent: number;
};

/** Settings → Giving: is the church's own Stripe account connected and able to take payments? */
export async function givingStatus(db: Db, payments: PaymentsProvider, tenantId: number): Promise<GivingStatus> {
  const account = await db
    .selectFrom('churchStripeAccounts')
    .selectAll()
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  return {
    mode: payments.mode,
    connect: payments.connect,
    status: !account ? 'not_connected' : account.chargesEnabled ? 'ready' : 'pending',
    accountId: account?.stripeAccountId ?? null,
    platformFeePercent: payments.platformFeePercent,
  };
}

/** Start (or resume) Express onboarding: the church's account is made once, then a fresh link. */
export async function connectGiving(
  db: Db,
  deps: { payments: PaymentsProvider; publicUrl: string },
  tenantId: number,
): Promise<{ url: string }> {
  if (!deps.payments.connect || deps.payments.mode === 'disabled') {
    throw badRequest('Stripe Connect is off on this server (STRIPE_CONNECT)');
  }
  let account = await db
    .selectFrom('churchStripeAccounts')
    .selectAll()
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!account) {
    const church = await db
      .selectFrom('users')
      .select(['churchName', 'email'])
      .where('id', '=', tenantId)
      .executeTakeFirstOrThrow();
    const created = await deps.payments.createConnectAccount({
      email: church.email,
      churchName: church.churchName,
      idempotencyKey: `church-account-${tenantId}`,
    });
    await db
      .insertInto('churchStripeAccounts')
      .values({ userId: tenantId, stripeAccountId: created.id })
      .onConflict((oc) => oc.column('userId').doNothing())
      .execute();
    account = await db
      .selectFrom('churchStripeAccounts')
      .selectAll()
      .where('userId', '=', tenantId)
      .executeTakeFirstOrThrow();
  }
  const back = `${deps.publicUrl}/settings/giving?giving=`;
  return deps.payments.createOnboardingLink({
    account: account.stripeAccountId,
    refreshUrl: `${back}refresh`,
    returnUrl: `${back}return`,
  });
}

/** Ask Stripe for the account's state now (after returning from onboarding). */
export async function refreshGiving(db: Db, payments: PaymentsProvider, tenantId: number): Promise<GivingStatus> {
  const account = await db
    .selectFrom('churchStripeAccounts')
    .select('stripeAccountId')
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (account && payments.mode !== 'disabled') {
    const state = await payments.retrieveAccount(account.stripeAccountId);
    await db
      .updateTable('churchStripeAccounts')
      .set({ ...state, updatedAt: new Date() })
      .where('userId', '=', tenantId)
      .execute();
  }
  return givingStatus(db, payments, tenantId);
}
