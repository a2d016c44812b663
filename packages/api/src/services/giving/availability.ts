import type { Db, DonationSourceKind } from '@lampstand/db';
import type { PaymentsProvider } from '../../providers/payments.js';
import { LSRC_PATTERN } from '../../schemas/show-up.js';

// Whether a church can take gifts, and where a gift came from: read by Show Up's donations and by
// the giving pages' gifts alike, so it lives apart from both.

export const GIVING_NOT_SET_UP = 'Online giving is not set up yet for this church.';
export const GIVING_DISABLED =
  'Online giving is not available yet. The site administrator needs to set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.';

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

/** A gift's `lsrc` attribution (`qr.12`, `link.3`, …) as its kind and id; null when it is none. */
export function parseSource(source: string | null | undefined): { kind: DonationSourceKind; id: number } | null {
  const m = source ? LSRC_PATTERN.exec(source) : null;
  if (!m) return null;
  const id = Number(m[2]);
  return id <= 2_147_483_647 ? { kind: m[1] as DonationSourceKind, id } : null;
}
