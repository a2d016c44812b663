// Show Up's plain values, without zod (its helpers are in shared/show-up.ts): the public project pages import these, and
// pulling in the schemas would put zod (about 26 KB gzipped) on a donor's first load.

export const PROJECT_CATEGORIES = [
  { value: 'community', label: 'Community' },
  { value: 'education', label: 'Education' },
  { value: 'construction', label: 'Construction' },
  { value: 'mission', label: 'Mission' },
  { value: 'outreach', label: 'Outreach' },
  { value: 'worship', label: 'Worship' },
  { value: 'youth', label: 'Youth' },
  { value: 'other', label: 'Other' },
] as const;

/** Money of the spec: 2 decimals, below numeric(10, 2)'s 100,000,000. */
export const MAX_MONEY = 99_999_999.99;
/**
 * The most one card payment may be, in cents: the card processor's per-charge maximum (Stripe's
 * $999,999.99). A Show Up gift, a church gift and each charge of a recurring gift are capped at it.
 */
export const MAX_CHARGE_CENTS = 99_999_999;
/** The smallest card payment the card network accepts in USD. */
export const MIN_DONATION = 0.5;
export const QUICK_AMOUNTS = [10, 25, 50, 100, 250, 500] as const;
export const DEFAULT_DONATION = 25;
/** The spec's 'map shows at most 5 projects'. */
export const MAP_MAX_PROJECTS = 5;

/** First-party attribution carried from our links (?lsrc=qr.12): kind and id. */
export const LSRC_PATTERN = /^(qr|link|email|sms|page)\.([1-9]\d{0,9})$/;
