import { z } from 'zod';
import { MAX_CHARGE_CENTS } from './show-up-values.js';
import { emailAddressSchema, idSchema, isoTimestamp, optionalTextSchema, requiredTextSchema } from './common.js';

// Giving that recurs (issue 30). Zod only: the staff screens and the public giving page read the
// same schemas. Money is whole cents (integers) everywhere: no float error.

// ---- Funds

export const FUND_STATUSES = ['active', 'archived'] as const;

export const fundSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  isPublic: z.boolean(),
  status: z.enum(FUND_STATUSES),
  /** Completed gifts' lines to this fund (whole cents). */
  giftCount: z.number().int(),
  createdAt: isoTimestamp,
});
export type Fund = z.output<typeof fundSchema>;

export const listFundsSchema = z
  .object({
    status: z.enum([...FUND_STATUSES, 'all'], { error: 'Status must be active, archived or all' }).default('all'),
  })
  .default({ status: 'all' });

const fundFields = {
  name: requiredTextSchema('Name', 80),
  description: optionalTextSchema('Description', 500),
  isPublic: z.boolean({ error: 'Public must be true or false' }),
};

export const createFundSchema = z.object({
  name: fundFields.name,
  description: fundFields.description.optional(),
  isPublic: fundFields.isPublic.default(true),
});
export type CreateFundInput = z.input<typeof createFundSchema>;

export const updateFundSchema = z.object({
  id: idSchema('Fund'),
  name: fundFields.name.optional(),
  description: fundFields.description.optional(),
  isPublic: fundFields.isPublic.optional(),
  status: z.enum(FUND_STATUSES, { error: 'Status must be active or archived' }).optional(),
});
export type UpdateFundInput = z.input<typeof updateFundSchema>;

export const fundIdSchema = z.object({ id: idSchema('Fund') });

/** DELETE answers whether the fund went away or, having gifts, was archived instead. */
export const deleteFundResultSchema = z.object({ id: z.number().int(), outcome: z.enum(['deleted', 'archived']) });

// ---- Gifts and the giving page

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

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}
export const dateSchema = (label: string) =>
  z.string({ error: `${label} must be a date (YYYY-MM-DD)` }).refine(isIsoDate, `${label} must be a date (YYYY-MM-DD)`);

export const giftLineInputSchema = z.object({
  fundId: idSchema('Fund'),
  amountCents: z
    .number({ error: 'Amount must be a whole number of cents' })
    .int('Amount must be a whole number of cents')
    .min(MIN_LINE_CENTS, 'Each amount must be at least $0.50')
    .max(MAX_LINE_CENTS, 'Amount is too large'),
});

/** A gift's (or a recurring gift's) lines: one to ten funds, together at most one card charge. */
const giftLinesSchema = z
  .array(giftLineInputSchema, { error: 'Lines must be a list of funds and amounts' })
  .min(1, 'Add at least one fund')
  .max(MAX_GIFT_LINES, `At most ${MAX_GIFT_LINES} funds in one gift`)
  .refine(
    (lines) => lines.reduce((sum, l) => sum + l.amountCents, 0) <= MAX_CHARGE_CENTS,
    `The lines add up to more than ${formatCents(MAX_CHARGE_CENTS)}, the most one card payment can be`,
  );

export const postalAddressSchema = z.object({
  line1: optionalTextSchema('Address line 1', 200).optional(),
  line2: optionalTextSchema('Address line 2', 200).optional(),
  city: optionalTextSchema('City', 100).optional(),
  state: optionalTextSchema('State', 100).optional(),
  postalCode: optionalTextSchema('Postal code', 20).optional(),
  country: optionalTextSchema('Country', 100).optional(),
});
export type PostalAddressInput = z.input<typeof postalAddressSchema>;

export const donorSchema = z.object({
  name: requiredTextSchema('Name', 200),
  email: emailAddressSchema(),
  address: postalAddressSchema.nullish(),
});

export const prepareGiftSchema = z.object({
  handle: z.string({ error: 'Handle is required' }).trim().min(1, 'Handle is required').max(64, 'Handle not found'),
  lines: giftLinesSchema,
  /** The gift's amount before the fee, when the page sends it: the lines must add up to it. */
  amountCents: z
    .number({ error: 'Amount must be a whole number of cents' })
    .int('Amount must be a whole number of cents')
    .positive('Amount must be a whole number of cents')
    .optional(),
  frequency: z.enum(FREQUENCIES, {
    error: 'Frequency must be one time, weekly, every two weeks, monthly, 1st and 15th or yearly',
  }),
  /** The first gift's date for a recurring gift (the church's today or later); today when omitted. */
  startDate: dateSchema('Start date').optional(),
  coverFees: z.boolean({ error: 'Cover the fees must be true or false' }).default(false),
  donor: donorSchema,
  note: optionalTextSchema('Note', 1000).optional(),
  /** Where the visitor came from: our own `lsrc` ('qr.12'); anything else is ignored. */
  source: z.string().max(40).nullish(),
  /** The browser's key: the same key twice gives the same gift. */
  idempotencyKey: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/, 'Idempotency key must be 16 to 64 letters, digits, - or _')
    .optional(),
});
export type PrepareGiftInput = z.input<typeof prepareGiftSchema>;

export const preparedGiftSchema = z.object({
  /** 'payment': pay now with a PaymentIntent; 'setup': save the card (SetupIntent) for the schedule. */
  kind: z.enum(['payment', 'setup']),
  giftId: z.number().int().nullable(),
  scheduleId: z.number().int().nullable(),
  /** The PaymentIntent or SetupIntent id. */
  intentId: z.string(),
  clientSecret: z.string(),
  linesCents: z.number().int(),
  feeCents: z.number().int(),
  totalCents: z.number().int(),
  frequency: z.enum(FREQUENCIES),
  startDate: z.string(),
  mode: z.enum(['stripe', 'demo', 'disabled']),
});

export const demoCompleteGiftSchema = z.object({
  intentId: z.string().max(200),
  clientSecret: z.string().max(300),
});

export const GIFT_STATUSES = ['pending', 'completed', 'failed', 'refunded', 'disputed'] as const;
export const GIFT_METHODS = ['card', 'cash', 'check', 'other'] as const;

export const giftLineSchema = z.object({
  fundId: z.number().int(),
  fundName: z.string(),
  amountCents: z.number().int(),
});

export const giftSchema = z.object({
  id: z.number().int(),
  createdAt: isoTimestamp,
  completedAt: isoTimestamp.nullable(),
  contactId: z.number().int().nullable(),
  scheduleId: z.number().int().nullable(),
  chargeDate: z.string().nullable(),
  donorName: z.string().nullable(),
  donorEmail: z.string().nullable(),
  amountCents: z.number().int(),
  feeCents: z.number().int(),
  frequency: z.enum(FREQUENCIES),
  method: z.enum(GIFT_METHODS),
  status: z.enum(GIFT_STATUSES),
  failureReason: z.string().nullable(),
  note: z.string().nullable(),
  /** What the donor received for the gift and its value (whole cents), if anything. */
  goodsServices: z.string().nullable(),
  goodsServicesCents: z.number().int().nullable(),
  lines: z.array(giftLineSchema),
});

export const findGiftsSchema = z
  .object({
    status: z
      .enum(GIFT_STATUSES, { error: 'Status must be pending, completed, failed, refunded or disputed' })
      .optional(),
    fundId: idSchema('Fund').optional(),
    contactId: idSchema('Contact').optional(),
    scheduleId: idSchema('Schedule').optional(),
    from: dateSchema('From').optional(),
    to: dateSchema('To').optional(),
    page: z.coerce
      .number({ error: 'Page must be a number' })
      .int('Page must be a number')
      .min(1)
      .max(100_000)
      .default(1),
    pageSize: z.coerce
      .number({ error: 'Page size must be a number' })
      .int('Page size must be a number')
      .min(1, 'Page size must be 1 to 200')
      .max(200, 'Page size must be 1 to 200')
      .default(50),
  })
  .default({ page: 1, pageSize: 50 });

export const giftPageSchema = z.object({
  gifts: z.array(giftSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

// ---- Recurring schedules

export const SCHEDULE_STATUSES = ['pending', 'active', 'paused', 'cancelled', 'failing'] as const;

export const scheduleSchema = z.object({
  id: z.number().int(),
  contactId: z.number().int().nullable(),
  donorName: z.string(),
  donorEmail: z.string(),
  frequency: z.enum(FREQUENCIES),
  startDate: z.string(),
  nextDate: z.string(),
  status: z.enum(SCHEDULE_STATUSES),
  pausedUntil: z.string().nullable(),
  amountCents: z.number().int(),
  feeCents: z.number().int(),
  coverFees: z.boolean(),
  failedAttempts: z.number().int(),
  lastFailure: z.string().nullable(),
  lines: z.array(giftLineSchema),
  createdAt: isoTimestamp,
});

export const findSchedulesSchema = z
  .object({
    status: z
      .enum(SCHEDULE_STATUSES, { error: 'Status must be pending, active, paused, cancelled or failing' })
      .optional(),
    fundId: idSchema('Fund').optional(),
  })
  .default({});

export const updateScheduleSchema = z.object({
  id: idSchema('Schedule'),
  status: z.enum(['active', 'paused', 'cancelled'], { error: 'Status must be active, paused or cancelled' }).optional(),
  pausedUntil: dateSchema('Paused until').nullish(),
  frequency: z
    .enum(['weekly', 'every_two_weeks', 'monthly', 'first_and_fifteenth', 'yearly'], {
      error: 'Frequency must be weekly, every two weeks, monthly, 1st and 15th or yearly',
    })
    .optional(),
  lines: giftLinesSchema.optional(),
  nextDate: dateSchema('Next date').optional(),
});

export const cardUpdateSchema = z.object({
  token: z.string({ error: 'Token is required' }).max(64, 'Recurring gift not found'),
});
export const cardUpdateResultSchema = z.object({
  intentId: z.string(),
  clientSecret: z.string(),
  mode: z.enum(['stripe', 'demo', 'disabled']),
});

// ---- Batches of cash and checks

export const BATCH_METHODS = ['cash', 'check', 'other'] as const;

const countedTotal = z
  .number({ error: 'Counted total must be a whole number of cents' })
  .int('Counted total must be a whole number of cents')
  .min(0, 'Counted total must be a whole number of cents')
  .max(2_000_000_000, 'Counted total is too large');

export const createBatchSchema = z.object({
  batchDate: dateSchema('Date'),
  description: optionalTextSchema('Description', 200).optional(),
  expectedTotalCents: countedTotal,
});

export const updateBatchSchema = z.object({
  id: idSchema('Batch'),
  batchDate: dateSchema('Date').optional(),
  description: optionalTextSchema('Description', 200).optional(),
  expectedTotalCents: countedTotal.optional(),
});

export const batchIdSchema = z.object({ id: idSchema('Batch') });

export const addBatchLineSchema = z
  .object({
    id: idSchema('Batch'),
    /** The donor; null or omitted: 'Anonymous cash'. */
    contactId: idSchema('Contact').nullish(),
    fundId: idSchema('Fund'),
    amountCents: z
      .number({ error: 'Amount must be a whole number of cents' })
      .int('Amount must be a whole number of cents')
      .min(1, 'Amount must be at least $0.01')
      .max(MAX_LINE_CENTS, 'Amount is too large'),
    method: z.enum(BATCH_METHODS, { error: 'Method must be cash, check or other' }),
    checkNumber: optionalTextSchema('Check number', 40).optional(),
    /** What the donor received for the gift, if anything (a dinner ticket): named on statements. */
    goodsServices: optionalTextSchema('Goods or services', 300).optional(),
    /** The value of what they received, whole cents (required with `goodsServices`; at most the gift). */
    goodsServicesCents: z
      .number({ error: 'Value of goods or services must be a whole number of cents' })
      .int('Value of goods or services must be a whole number of cents')
      .min(0, 'Value of goods or services must be a whole number of cents')
      .max(MAX_LINE_CENTS, 'Value of goods or services is too large')
      .nullish(),
    /** Required on a committed batch: a correction says why. */
    reason: optionalTextSchema('Reason', 500).optional(),
  })
  .superRefine((v, ctx) => {
    const described = !!v.goodsServices;
    const valued = v.goodsServicesCents !== undefined && v.goodsServicesCents !== null;
    if (described && !valued)
      ctx.addIssue({
        code: 'custom',
        path: ['goodsServicesCents'],
        message: 'Enter the value of the goods or services',
      });
    else if (valued && !described)
      ctx.addIssue({ code: 'custom', path: ['goodsServices'], message: 'Describe the goods or services' });
    else if (valued && v.goodsServicesCents! > v.amountCents)
      ctx.addIssue({
        code: 'custom',
        path: ['goodsServicesCents'],
        message: 'The goods or services cannot be worth more than the gift',
      });
  });

export const batchLineSchema = z.object({
  id: z.number().int(),
  contactId: z.number().int().nullable(),
  donorName: z.string(),
  fundId: z.number().int(),
  fundName: z.string(),
  amountCents: z.number().int(),
  method: z.enum(GIFT_METHODS),
  checkNumber: z.string().nullable(),
  /** What the donor received for the gift and its value (whole cents), if anything. */
  goodsServices: z.string().nullable(),
  goodsServicesCents: z.number().int().nullable(),
  correctionReason: z.string().nullable(),
  /** Why a committed line was reversed (its gift is then refunded: off every total). */
  reversalReason: z.string().nullable(),
  status: z.enum(GIFT_STATUSES),
});

/** Reverse a committed batch's line (a bounced check, a line entered twice): the reason is required. */
export const reverseBatchLineSchema = z.object({
  id: idSchema('Batch'),
  lineId: idSchema('Line'),
  reason: requiredTextSchema('Reason', 500),
});

export const batchSchema = z.object({
  id: z.number().int(),
  batchDate: z.string(),
  description: z.string().nullable(),
  expectedTotalCents: z.number().int(),
  linesTotalCents: z.number().int(),
  lineCount: z.number().int(),
  status: z.enum(['open', 'committed']),
  committedAt: isoTimestamp.nullable(),
  createdAt: isoTimestamp,
});

export const batchDetailSchema = batchSchema.extend({ lines: z.array(batchLineSchema) });

// ---- Overview (issue 30 §9) -------------------------------------------------------------------

/** Where a gift came from: the existing attribution (a QR code, a short link, an email, a text, a page), or none. */
export const GIFT_SOURCES = ['qr', 'link', 'email', 'sms', 'page', 'direct'] as const;

export const lapsedDonorSchema = z.object({
  contactId: z.number().int().nullable(),
  name: z.string(),
  /** The date of their last gift (church time). */
  lastGiftOn: z.string(),
  /** What they gave in the last 12 months. */
  totalCents: z.number().int(),
});

export const givingOverviewSchema = z.object({
  /** The church's today (its time zone); the overview covers the 12 months up to it. */
  today: z.string(),
  /** Each of the 12 months, oldest first ('2026-01'): all gifts, and those from recurring gifts. */
  months: z.array(z.object({ month: z.string(), totalCents: z.number().int(), recurringCents: z.number().int() })),
  /** Each fund's total over the 12 months, largest first. */
  funds: z.array(z.object({ fundId: z.number().int(), fundName: z.string(), totalCents: z.number().int() })),
  totalCents: z.number().int(),
  /** Active recurring gifts, as income per month (a weekly $10 is $43.33 a month). */
  recurring: z.object({ count: z.number().int(), monthlyCents: z.number().int() }),
  /** Donors whose first gift is this month. */
  newDonorsThisMonth: z.number().int(),
  /** Gave in the last 12 months, nothing in the last 90 days: the most recent first (at most 500 listed). */
  lapsed: z.object({ count: z.number().int(), donors: z.array(lapsedDonorSchema) }),
  /** Gifts by where they came from, over the 12 months. */
  sources: z.array(z.object({ source: z.enum(GIFT_SOURCES), count: z.number().int(), totalCents: z.number().int() })),
});
export type GivingOverview = z.infer<typeof givingOverviewSchema>;

/** Lapsed donors (those with a contact) added to a list, or enrolled in a journey. */
export const lapsedToListSchema = z.object({ listId: idSchema('List') });
export const lapsedToJourneySchema = z.object({ journeyId: idSchema('Journey') });
