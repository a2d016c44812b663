import { z } from 'zod';
import { idSchema, isoTimestamp, textSchema } from '../common.js';
import { LSRC_PATTERN, MAX_CHARGE_CENTS, MIN_DONATION } from '../show-up-values.js';
import { emailSchema } from './fields.js';
import { emptyToNull, numberOrNull } from '../../shared/form-input.js';
import { hasAtMostTwoDecimals } from '../../shared/show-up.js';

// Gifts to a project: the public donation form, the thank-you page, the owner's list, the giving set-up.

/** A public supporter: anonymous gifts carry no name; no email ever; a message only when the donor allowed it. */
export const supporterSchema = z.object({
  id: z.number().int(),
  amount: z.number(),
  donorName: z.string(),
  isAnonymous: z.boolean(),
  message: z.string().nullable(),
  createdAt: isoTimestamp,
});

const optionalDonorText = (label: string, max: number) =>
  z.preprocess(emptyToNull, textSchema(label, max).trim().nullable()).optional();

/** The donation form; when anonymous the name and email are neither shown nor sent. */
export const donationFormSchema = z.object({
  amount: z.preprocess(
    numberOrNull,
    z
      .number({ error: (iss) => (iss.input == null ? 'Amount is required' : 'Amount must be a positive number') })
      .refine((n) => Number.isFinite(n), 'Amount must be a positive number')
      .positive('Amount must be a positive number')
      .min(MIN_DONATION, 'The minimum donation is $0.50')
      .max(MAX_CHARGE_CENTS / 100, 'Amount must be less than $1,000,000')
      .refine(hasAtMostTwoDecimals, 'Amount can have at most 2 decimal places'),
  ),
  donorName: optionalDonorText('Name', 200),
  donorEmail: z.preprocess(emptyToNull, emailSchema.nullable()).optional(),
  message: optionalDonorText('Message', 1000),
  isAnonymous: z.boolean().default(false),
  /**
   * 'Show my message on the project page'. Left out: shown for a named gift, not for an anonymous
   * one (the form starts the box that way). Staff always see the message.
   */
  showMessage: z.boolean().optional(),
});
export type DonationFormValues = z.input<typeof donationFormSchema>;

export const prepareDonationSchema = donationFormSchema.extend({
  projectId: idSchema('Project ID'),
  /** The lsrc the visitor arrived with; anything else is ignored, never an error. */
  source: z
    .unknown()
    .transform((v) => (typeof v === 'string' && LSRC_PATTERN.test(v) ? v : null))
    .optional(),
  /** The browser's key for this attempt: a retried prepare gives the same payment. */
  idempotencyKey: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,100}$/, 'Invalid idempotency key')
    .optional(),
});

export const givingModeSchema = z.enum(['stripe', 'demo', 'disabled']);

export const preparedDonationSchema = z.object({
  donationId: z.number().int(),
  paymentIntentId: z.string(),
  clientSecret: z.string(),
  amount: z.number(),
  mode: givingModeSchema,
});

export const donationByPaymentInputSchema = z.object({
  paymentIntent: z.string({ error: 'Payment is required' }).regex(/^pi_[A-Za-z0-9_]{1,200}$/, 'Payment not found'),
});

/** Only what the thank-you page shows. */
export const donationReceiptInfoSchema = z.object({
  amount: z.number(),
  createdAt: isoTimestamp,
  donorName: z.string().nullable(),
  isAnonymous: z.boolean(),
  projectId: z.number().int(),
  projectTitle: z.string(),
  status: z.enum(['pending', 'completed', 'failed', 'refunded', 'disputed']),
  receiptUrl: z.string().nullable(),
});

export const demoCompleteSchema = z.object({
  paymentIntent: donationByPaymentInputSchema.shape.paymentIntent,
  clientSecret: z.string().max(300),
});

export const showUpConfigInputSchema = z.object({ projectId: idSchema('Project ID').optional() }).default({});
export const showUpConfigSchema = z.object({
  mapTileUrl: z.string(),
  mapAttribution: z.string(),
  giving: z.object({
    mode: givingModeSchema,
    publishableKey: z.string().nullable(),
    /** False when Donate Now cannot take a gift; `message` says why. */
    available: z.boolean(),
    message: z.string().nullable(),
  }),
});
export type ShowUpConfig = z.infer<typeof showUpConfigSchema>;

export const donationSourceSchema = z.object({
  kind: z.enum(['qr', 'link', 'email', 'sms', 'page']),
  id: z.number().int(),
  label: z.string(),
});

export const ownerDonationSchema = z.object({
  id: z.number().int(),
  createdAt: isoTimestamp,
  amount: z.number(),
  donorName: z.string(),
  donorEmail: z.string().nullable(),
  isAnonymous: z.boolean(),
  message: z.string().nullable(),
  status: z.enum(['pending', 'completed', 'failed', 'refunded', 'disputed']),
  failureReason: z.string().nullable(),
  source: donationSourceSchema.nullable(),
});
export type OwnerDonation = z.infer<typeof ownerDonationSchema>;

export const ownerDonationsSchema = z.object({
  donations: z.array(ownerDonationSchema),
  /** 'Where gifts came from': completed gifts by source (null source = direct). */
  sources: z.array(z.object({ source: donationSourceSchema.nullable(), total: z.number(), count: z.number().int() })),
  totalCompleted: z.number(),
});
export type OwnerDonations = z.infer<typeof ownerDonationsSchema>;

export const givingStatusSchema = z.object({
  mode: givingModeSchema,
  connect: z.boolean(),
  status: z.enum(['not_connected', 'pending', 'ready']),
  accountId: z.string().nullable(),
  platformFeePercent: z.number(),
});
