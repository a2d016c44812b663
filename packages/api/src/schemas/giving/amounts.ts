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
