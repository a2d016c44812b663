import { z } from 'zod';
import { emailAddressSchema, idSchema, isoTimestamp, optionalTextSchema, requiredTextSchema } from '../common.js';
import { MAX_CHARGE_CENTS } from '../show-up-values.js';
import { FREQUENCIES, MAX_GIFT_LINES, MAX_LINE_CENTS, MIN_LINE_CENTS } from './amounts.js';
import { formatCents } from '../../shared/giving.js';
import { dateSchema } from './dates.js';

// ---- Gifts and the giving page

export const giftLineInputSchema = z.object({
  fundId: idSchema('Fund'),
  amountCents: z
    .number({ error: 'Amount must be a whole number of cents' })
    .int('Amount must be a whole number of cents')
    .min(MIN_LINE_CENTS, 'Each amount must be at least $0.50')
    .max(MAX_LINE_CENTS, 'Amount is too large'),
});

/** A gift's (or a recurring gift's) lines: one to ten funds, together at most one card charge. */
export const giftLinesSchema = z
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
  /** A recurring giver's personal link after a move (`?renew=`): the schedule made is theirs again. */
  renew: z.string().max(64).nullish(),
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
  /** How much of the amount went back to the payer: a part (the gift still counts the rest) or, refunded, all of it. */
  refundedCents: z.number().int(),
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
