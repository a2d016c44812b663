import { z } from 'zod';
import { boundedArray, idSchema, isCleanText, isoTimestamp, textSchema } from './common.js';
import { LSRC_PATTERN, MAX_CHARGE_CENTS, MAX_MONEY, MIN_DONATION, PROJECT_CATEGORIES } from './show-up-values.js';

export * from './show-up-values.js';

// Zod only: the Show Up forms in the browser validate with these same schemas.

const CATEGORY_VALUES = PROJECT_CATEGORIES.map((c) => c.value) as [string, ...string[]];

/** Whole cents of a dollar amount with at most 2 decimals, without float error (19.99 -> 1999). */
export function toCents(amount: number): number {
  const [whole, frac = ''] = amount.toFixed(6).split('.');
  const cents = Number(whole!.replace('-', '')) * 100 + Number(frac.slice(0, 2).padEnd(2, '0'));
  // toFixed(6) rounds 19.989999999 up to 19.990000, so the first two decimals are the intended ones.
  return amount < 0 ? -cents : cents;
}

/** True when the amount has at most 2 decimal places (as typed: 12.5, 12.50, 12). */
export function hasAtMostTwoDecimals(amount: number): boolean {
  return Math.abs(toCents(amount) - amount * 100) < 1e-6;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

const emptyToNull = (v: unknown) =>
  v === '' || v === undefined || (typeof v === 'string' && v.trim() === '') ? null : v;
const numberOrNull = (v: unknown) => {
  const e = emptyToNull(v);
  if (typeof e === 'string' && e.trim() !== '' && Number.isFinite(Number(e))) return Number(e);
  return e;
};

const cleanText = (label: string, min: number, max: number, minMessage: string, maxMessage?: string) =>
  z
    .string({ error: minMessage })
    .trim()
    .min(min, minMessage)
    .max(max, maxMessage ?? `${label} must be at most ${max} characters`)
    .refine(isCleanText, `${label} contains characters that are not allowed`);

const emailSchema = z
  .string({ error: 'Invalid email address' })
  .trim()
  .max(320, 'Invalid email address')
  .pipe(z.email('Invalid email address'));

/** A website: 'example.org' is taken as https://example.org. */
export const websiteSchema = z.preprocess(
  (v) => {
    const e = emptyToNull(v);
    if (typeof e !== 'string') return e;
    const t = e.trim();
    return /^[a-z][a-z0-9+.-]*:/i.test(t) ? t : `https://${t}`;
  },
  z
    .string()
    .max(2048, 'Please enter a valid URL')
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.includes('.') && isCleanText(v);
      } catch {
        return false;
      }
    }, 'Please enter a valid URL')
    .nullable(),
);

/** An image URL: http(s), or a path on this server (/uploads/...). */
const imageUrlSchema = z
  .string({ error: 'Please enter a valid image URL' })
  .trim()
  .min(1, 'Please enter a valid image URL')
  .max(2048, 'Please enter a valid image URL')
  .refine((v) => {
    if (v.startsWith('/') && !v.startsWith('//')) return isCleanText(v) && !/\s/.test(v);
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && isCleanText(v);
    } catch {
      return false;
    }
  }, 'Please enter a valid image URL');

/** An image as the uploads service returns it, or just its URL. */
export const imageInputSchema = z.preprocess(
  (v) => (typeof v === 'string' ? { url: v } : v),
  z.object({
    id: idSchema('Upload ID').nullish(),
    url: imageUrlSchema,
    thumbnailUrl: imageUrlSchema.nullish(),
  }),
);

const tagsSchema = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean)
      : v == null
        ? []
        : v,
  boundedArray(textSchema('Tag', 50).trim().min(1, 'Tags cannot be empty'), 'Tags', 30),
);

const moneySchema = (requiredMessage: string, positiveMessage: string) =>
  z.preprocess(
    numberOrNull,
    z
      .number({ error: (iss) => (iss.input == null ? requiredMessage : positiveMessage) })
      .refine((n) => Number.isFinite(n), positiveMessage)
      .positive(positiveMessage)
      .max(MAX_MONEY, 'Amount must be less than $100,000,000')
      .refine(hasAtMostTwoDecimals, 'Amount can have at most 2 decimal places'),
  );

const coordinate = (label: string, limit: number) =>
  z.preprocess(
    numberOrNull,
    z
      .number({ error: `${label} must be a number` })
      .min(-limit, `${label} must be between -${limit} and ${limit}`)
      .max(limit, `${label} must be between -${limit} and ${limit}`)
      .nullable(),
  );

const dateSchema = z.string({ error: 'Invalid date format' }).trim().refine(isIsoDate, 'Invalid date format');

/** Every field of the project form (the same form creates and edits). */
export const projectFieldsSchema = z.object({
  title: cleanText('Title', 5, 200, 'Title must be at least 5 characters'),
  shortDescription: cleanText(
    'Short description',
    10,
    200,
    'Short description must be at least 10 characters',
    'Short description must be less than 200 characters',
  ),
  description: cleanText('Description', 50, 20_000, 'Description must be at least 50 characters'),
  location: cleanText('Location', 3, 300, 'Location is required'),
  latitude: coordinate('Latitude', 90),
  longitude: coordinate('Longitude', 180),
  targetAmount: moneySchema('Target amount must be positive', 'Target amount must be positive'),
  category: z
    .string({ error: 'Category is required' })
    .min(1, 'Category is required')
    .refine((v) => CATEGORY_VALUES.includes(v), 'Please choose a category'),
  tags: tagsSchema,
  organizationName: cleanText('Organization name', 3, 200, 'Organization name is required'),
  contactEmail: emailSchema,
  contactPhone: z.preprocess(emptyToNull, textSchema('Contact phone', 40).nullable()),
  website: websiteSchema,
  startDate: dateSchema,
  endDate: z.preprocess(emptyToNull, dateSchema.nullable()),
  coverImage: z.preprocess(emptyToNull, imageInputSchema.nullable()),
  images: boundedArray(imageInputSchema, 'Images', 20),
});
// No defaults above: zod 4 applies a default inside .partial(), which would blank unsent PATCH fields.

const endAfterStart = (v: { startDate?: string; endDate?: string | null }, ctx: z.RefinementCtx) => {
  if (v.startDate && v.endDate && v.endDate <= v.startDate) {
    ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'End date must be after the start date' });
  }
};

/** Create: category defaults to community, the start date to today, images to none. */
export const createProjectSchema = projectFieldsSchema
  .extend({
    category: projectFieldsSchema.shape.category.default('community'),
    startDate: dateSchema.optional(),
    images: projectFieldsSchema.shape.images.default([]),
  })
  .superRefine(endAfterStart);
export type ProjectFormValues = z.input<typeof createProjectSchema>;

/** PATCH: only the fields sent change (the end date is checked against the merged record). */
export const updateProjectSchema = projectFieldsSchema
  .partial()
  .extend({ id: idSchema('Project ID') })
  .superRefine(endAfterStart);
export type UpdateProjectInput = z.output<typeof updateProjectSchema>;

export const projectIdSchema = z.object({ id: idSchema('Project ID') });

/** ?category=urgent: active projects whose end date is within the next 30 days. */
export const URGENT_DAYS = 30;

export const findProjectsSchema = z.object({
  search: z.preprocess(emptyToNull, textSchema('Search', 200).nullable()).default(null),
  category: z
    .preprocess(
      emptyToNull,
      z
        .string()
        .refine((v) => v === 'urgent' || CATEGORY_VALUES.includes(v), 'Please choose a category')
        .nullable(),
    )
    .default(null),
  /** Nearest first from here (the browser's location), e.g. for the map. */
  lat: coordinate('Latitude', 90).default(null),
  lng: coordinate('Longitude', 180).default(null),
  ownedByMe: z.preprocess((v) => v === true || v === 'true' || v === '1', z.boolean()).default(false),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(24),
});

const imageSchema = z.object({ id: z.number().int().nullable(), url: z.string(), thumbnailUrl: z.string().nullable() });

export const projectCardSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  title: z.string(),
  shortDescription: z.string(),
  location: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  targetAmount: z.number(),
  raisedAmount: z.number(),
  donationsCount: z.number().int(),
  status: z.string(),
  category: z.string(),
  tags: z.array(z.string()),
  coverImage: z.string().nullable(),
  coverThumbnailUrl: z.string().nullable(),
  organizationName: z.string(),
  startDate: z.string(),
  endDate: z.string().nullable(),
  /** Kilometres from the given lat/lng, when both were given and the project has coordinates. */
  distanceKm: z.number().nullable(),
});
export type ProjectCard = z.infer<typeof projectCardSchema>;

export const projectPageSchema = z.object({
  items: z.array(projectCardSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

export const projectSchema = projectCardSchema.omit({ distanceKm: true }).extend({
  description: z.string(),
  coverUploadId: z.number().int().nullable(),
  images: z.array(imageSchema),
  contactEmail: z.string(),
  contactPhone: z.string().nullable(),
  website: z.string().nullable(),
  updatesCount: z.number().int(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
  /** True for the signed-in owner (Edit Project, Post Update, Donations). */
  isOwner: z.boolean(),
});
export type Project = z.infer<typeof projectSchema>;

export const createUpdateSchema = z.object({
  projectId: idSchema('Project ID'),
  title: cleanText('Title', 5, 200, 'Title must be at least 5 characters'),
  content: cleanText('Content', 20, 20_000, 'Content must be at least 20 characters'),
  images: boundedArray(imageInputSchema, 'Images', 20).default([]),
});

export const projectUpdateSchema = z.object({
  id: z.number().int(),
  projectId: z.number().int(),
  title: z.string(),
  content: z.string(),
  images: z.array(imageSchema),
  createdAt: isoTimestamp,
});

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
