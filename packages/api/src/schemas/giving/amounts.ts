// Frequencies, the limits of a gift's amounts, the card fee a donor may cover, and cents as text.

export const FREQUENCIES = [
  'one_time',
  'weekly',
  'every_two_weeks',
  'monthly',
  'first_and_fifteenth',
  'yearly',
] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export type RecurringFrequency = Exclude<Frequency, 'one_time'>;
export const FREQUENCY_LABELS: Record<Frequency, string> = {
  one_time: 'One time',
  weekly: 'Weekly',
  every_two_weeks: 'Every two weeks',
  monthly: 'Monthly',
  first_and_fifteenth: '1st and 15th',
  yearly: 'Yearly',
};

/** The smallest line (and card charge) in cents: the card networks' $0.50. */
export const MIN_LINE_CENTS = 50;
/** Lines of one gift. */
export const MAX_GIFT_LINES = 10;
/** One line's most: below PostgreSQL's integer with room for the sum of 10 lines and the fee. */
export const MAX_LINE_CENTS = 99_999_999;
export const QUICK_GIFT_AMOUNTS = [25, 50, 100, 250] as const;

/** The fee a donor may cover: percent in basis points (290 = 2.9%) plus a fixed part in cents. */
export interface CardFee {
  percentBasisPoints: number;
  fixedCents: number;
}
export const DEFAULT_CARD_FEE: CardFee = { percentBasisPoints: 290, fixedCents: 30 };

/**
 * The fee added when the donor covers it: enough that, after the card fee on the whole charge,
 * the church receives `cents` (gross = (cents + fixed) / (1 - percent), rounded up to the cent).
 * Integer arithmetic: no float error.
 */
export function coverFeeCents(cents: number, fee: CardFee = DEFAULT_CARD_FEE): number {
  const denominator = 10_000 - fee.percentBasisPoints;
  const gross = Math.ceil(((cents + fee.fixedCents) * 10_000) / denominator);
  return gross - cents;
}

/**
 * What a donor received for a gift, as statements and receipts name it: 'Mission dinner ticket
 * (value $15.00)'.
 */
export function goodsServicesText(description: string, cents: number | null): string {
  return cents === null ? description : `${description} (value ${formatCents(cents)})`;
}

/** '$1,234.50' from cents. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}
