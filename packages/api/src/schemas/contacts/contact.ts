import { z } from 'zod';
import { idSchema, isoTimestamp, requiredTextSchema } from '../common.js';
import { isCleanText, notAllowedMessage } from '../../shared/text.js';
import { dmyDateSchema, isoDateSchema } from './dates.js';
import { CALLING_CODES } from '../../shared/locale.js';

// A contact: its fields, metadata, consent, the list page and the export.

/** A phone's calling code ('+61'): every country's. The form's choices come from `callingCodeOptions`. */
export const countryCodeSchema = z.enum(CALLING_CODES as [string, ...string[]], {
  error: 'Please choose a country code',
});

export const STAFF_ROLES = [
  { value: 'pastor', label: 'Pastor' },
  { value: 'worship_leader', label: 'Worship Leader' },
  { value: 'youth_minister', label: 'Youth Minister' },
  { value: 'childrens_minister', label: "Children's Minister" },
  { value: 'admin', label: 'Administrative Staff' },
  { value: 'elder', label: 'Elder' },
  { value: 'deacon', label: 'Deacon' },
  { value: 'volunteer', label: 'Volunteer' },
  { value: 'other', label: 'Other' },
] as const;
export const staffRoleSchema = z.enum(
  STAFF_ROLES.map((r) => r.value),
  { error: 'Please choose a staff role' },
);

/** Optional text: '' and null both mean "none". */
export const contactTextSchema = (max = 2000) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .refine(isCleanText, notAllowedMessage('Text'))
    .nullish()
    .transform((v) => (v ? v : null));

/** The metadata fields without defaults: a PATCH must not fill unsent fields with them. */
const contactMetadataShape = {
  countryCode: countryCodeSchema,
  dateOfBirth: isoDateSchema,
  notes: contactTextSchema(10000),
  isChurchMember: z.boolean(),
  isBaptised: z.boolean(),
  isSeeker: z.boolean(),
  isServiceStaff: z.boolean(),
  staffRole: z.union([staffRoleSchema, z.literal(''), z.null()]).transform((v) => (v ? v : null)),
  wwccNumber: contactTextSchema(100),
  website: contactTextSchema(500),
  address: contactTextSchema(500),
  city: contactTextSchema(200),
  state: contactTextSchema(200),
  country: contactTextSchema(200),
  postalCode: contactTextSchema(50),
};
export const contactMetadataSchema = z.object({
  ...contactMetadataShape,
  /** Left out: the calling code of the church's country (Settings); the Add Contact form starts there. */
  countryCode: countryCodeSchema.optional(),
  dateOfBirth: isoDateSchema.optional(),
  notes: contactMetadataShape.notes.optional(),
  isChurchMember: z.boolean().default(false),
  isBaptised: z.boolean().default(false),
  isSeeker: z.boolean().default(false),
  isServiceStaff: z.boolean().default(false),
  staffRole: z
    .union([staffRoleSchema, z.literal(''), z.null()])
    .optional()
    .transform((v) => (v ? v : null)),
  wwccNumber: contactMetadataShape.wwccNumber.optional(),
  website: contactMetadataShape.website.optional(),
  address: contactMetadataShape.address.optional(),
  city: contactMetadataShape.city.optional(),
  state: contactMetadataShape.state.optional(),
  country: contactMetadataShape.country.optional(),
  postalCode: contactMetadataShape.postalCode.optional(),
});
/** PATCH: only the metadata keys sent change; the rest keep their stored values. */
export const contactMetadataPatchSchema = z.object(contactMetadataShape).partial();

export const contactFieldsSchema = z.object({
  /** Accepted for the spec's payload; the church always comes from the session. */
  userId: z.unknown().optional(),
  firstName: requiredTextSchema('First name', 200),
  lastName: requiredTextSchema('Last name', 200),
  email: z
    .string({ error: 'Please enter a valid email address' })
    .max(1000, 'Please enter a valid email address')
    .trim()
    .pipe(z.email('Please enter a valid email address').max(320)),
  phone: z
    .string({ error: 'Please enter a valid phone number' })
    .trim()
    .min(4, 'Please enter a valid phone number')
    .max(40, 'Please enter a valid phone number')
    .refine(isCleanText, 'Please enter a valid phone number'),
  tags: z
    .array(z.string().trim().min(1).max(100).refine(isCleanText, notAllowedMessage('Tag')))
    .max(100)
    .optional(),
  metadata: contactMetadataSchema.optional(),
});
/**
 * 'ask': a save whose email or phone another contact of the church already has is refused with a
 * 409 naming them (the staff form's question); 'save' or left out: saved anyway (imports, the API).
 */
export const ifDuplicateSchema = z
  .enum(['ask', 'save'], { error: "If duplicate must be 'ask' or 'save'" })
  .optional()
  .describe("'ask': answer 409 naming the contacts with this email or phone instead of saving; 'save' (default): save");
export const createContactSchema = contactFieldsSchema.extend({ ifDuplicate: ifDuplicateSchema });

/**
 * The Add/Edit Contact form: the same fields and messages, with the date of birth typed as
 * DD/MM/YYYY (one that cannot be read is dropped, as the spec says) and every metadata field
 * present. Its output is a create payload, and a full PATCH.
 */
export const contactFormSchema = contactFieldsSchema.extend({
  metadata: contactMetadataSchema.extend({ dateOfBirth: dmyDateSchema }),
});
export type ContactFormValues = z.input<typeof contactFormSchema>;
/**
 * PATCH: every field is optional and an unsent one keeps its value; metadata is merged key by key
 * and the E.164 phone is recomputed from the merged phone and country code.
 */
export const updateContactSchema = z.object({
  id: idSchema('Contact ID'),
  userId: contactFieldsSchema.shape.userId,
  firstName: contactFieldsSchema.shape.firstName.optional(),
  lastName: contactFieldsSchema.shape.lastName.optional(),
  email: contactFieldsSchema.shape.email.optional(),
  phone: contactFieldsSchema.shape.phone.optional(),
  tags: contactFieldsSchema.shape.tags,
  metadata: contactMetadataPatchSchema.optional(),
  /** 'ask': checked only when the email, phone or country code changes. */
  ifDuplicate: ifDuplicateSchema,
});

export const consentStatusSchema = z.enum(['subscribed', 'unsubscribed']);
export const consentChannelSchema = z.enum(['email', 'sms']);
const consentStateSchema = z.object({
  status: consentStatusSchema,
  changedAt: isoTimestamp.nullable().describe('ISO 8601'),
  source: z.string().nullable(),
});

export const contactSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  /** The phone in E.164 (from countryCode), or null when it is not a possible number. */
  phoneE164: z.string().nullable(),
  tags: z.array(z.string()),
  metadata: z.object({
    countryCode: z.string(),
    dateOfBirth: z.string().nullable(),
    notes: z.string().nullable(),
    isChurchMember: z.boolean(),
    isBaptised: z.boolean(),
    isSeeker: z.boolean(),
    isServiceStaff: z.boolean(),
    staffRole: z.string().nullable(),
    wwccNumber: z.string().nullable(),
    website: z.string().nullable(),
    address: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    country: z.string().nullable(),
    postalCode: z.string().nullable(),
  }),
  consent: z.object({ email: consentStateSchema, sms: consentStateSchema }),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});
export type Contact = z.infer<typeof contactSchema>;

export const contactTabSchema = z.enum(['all', 'members', 'staff']);
export type ContactTab = z.infer<typeof contactTabSchema>;

export const findContactsSchema = z.object({
  search: z.string().trim().max(200).refine(isCleanText, notAllowedMessage('Search')).optional(),
  tab: contactTabSchema.default('all'),
  listId: idSchema('List ID').optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(25),
});
export const contactPageSchema = z.object({
  items: z.array(contactSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type ContactPage = z.infer<typeof contactPageSchema>;

export const contactIdSchema = z.object({ id: idSchema('Contact ID') });

/** The church's contact tags, A to Z (what a journey's tag pickers offer). */
export const contactTagsSchema = z.object({ tags: z.array(z.string()) });
export type ContactTags = z.infer<typeof contactTagsSchema>;

export const updateConsentSchema = z.object({
  id: idSchema('Contact ID'),
  channel: consentChannelSchema,
  status: consentStatusSchema,
  note: z.string().trim().max(500).refine(isCleanText, notAllowedMessage('Note')).optional(),
});
export const consentEventSchema = z.object({
  id: z.number().int(),
  channel: consentChannelSchema,
  status: consentStatusSchema,
  source: z.string(),
  note: z.string().nullable(),
  at: isoTimestamp,
});

export const exportContactsSchema = z.object({
  listId: z.preprocess((v) => (v === '' ? undefined : v), idSchema('List ID').optional()),
});
export const csvFileSchema = z.object({ fileName: z.string(), csv: z.string() });
