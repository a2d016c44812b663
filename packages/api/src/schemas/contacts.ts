import { z } from 'zod';
import { idSchema, isCleanText, isoTimestamp, notAllowedMessage, requiredTextSchema } from './common.js';

// Zod only: the contact form in the browser validates with these same schemas.

export const COUNTRY_CODES = [
  { value: '+61', label: '+61 Australia' },
  { value: '+1', label: '+1 USA' },
  { value: '+44', label: '+44 UK' },
  { value: '+64', label: '+64 New Zealand' },
] as const;
export const countryCodeSchema = z.enum(['+61', '+1', '+44', '+64'], { error: 'Please choose a country code' });

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

export { idSchema } from './common.js';

/** Optional text: '' and null both mean "none". */
const optionalText = (max = 2000) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .refine(isCleanText, notAllowedMessage('Text'))
    .nullish()
    .transform((v) => (v ? v : null));

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export function isValidIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** 'YYYY-MM-DD', or empty for none. */
export const isoDateSchema = z
  .string()
  .max(40, 'Please enter a valid date (YYYY-MM-DD)')
  .trim()
  .nullish()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || isValidIsoDate(v), { message: 'Please enter a valid date (YYYY-MM-DD)' });

/** DD/MM/YYYY (as typed on screen) to YYYY-MM-DD; null when it cannot be parsed (the spec drops such a value). */
export function dmyToIso(value: string | null | undefined): string | null {
  if (!value) return null;
  const m = /^\s*(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\s*$/.exec(value);
  if (!m) return null;
  const iso = `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  return isValidIsoDate(iso) ? iso : null;
}
/** A date typed as DD/MM/YYYY in a form, read as YYYY-MM-DD (null when empty or unreadable). */
export const dmyDateSchema = z
  .string()
  .nullish()
  .transform((v) => dmyToIso(v));

/** Whole years from a 'YYYY-MM-DD' date of birth to `today` (a child's age, never typed by hand). */
export function ageFromDateOfBirth(iso: string, today: Date = new Date()): number | null {
  if (!isValidIsoDate(iso)) return null;
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const month = today.getMonth() + 1;
  const beforeBirthday = month < m || (month === m && today.getDate() < d);
  const age = today.getFullYear() - y - (beforeBirthday ? 1 : 0);
  return age >= 0 ? age : null;
}

/** YYYY-MM-DD to DD/MM/YYYY for display and editing. */
export function isoToDmy(value: string | null | undefined): string {
  if (!value) return '';
  const m = ISO_DATE.exec(value);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : '';
}

/** The metadata fields without defaults: a PATCH must not fill unsent fields with them. */
const contactMetadataShape = {
  countryCode: countryCodeSchema,
  dateOfBirth: isoDateSchema,
  notes: optionalText(10000),
  isChurchMember: z.boolean(),
  isBaptised: z.boolean(),
  isSeeker: z.boolean(),
  isServiceStaff: z.boolean(),
  staffRole: z.union([staffRoleSchema, z.literal(''), z.null()]).transform((v) => (v ? v : null)),
  wwccNumber: optionalText(100),
  website: optionalText(500),
  address: optionalText(500),
  city: optionalText(200),
  state: optionalText(200),
  country: optionalText(200),
  postalCode: optionalText(50),
};
export const contactMetadataSchema = z.object({
  ...contactMetadataShape,
  /** Left out: the church's default country (Settings). The Add Contact form starts at '+61'. */
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

export const contactIdSchema = z.object({ id: idSchema('Contact ID') });

/** The church's contact tags, A to Z (what a journey's tag pickers offer). */
export const contactTagsSchema = z.object({ tags: z.array(z.string()) });
export type ContactTags = z.infer<typeof contactTagsSchema>;

// Duplicates and merging

/** What the contact form checks while typing: contacts with this email or phone. */
export const findDuplicatesSchema = z.object({
  email: z.string().trim().max(320).optional(),
  phone: z.string().trim().max(40).optional(),
  countryCode: countryCodeSchema.optional(),
  /** The contact being edited, which is not its own duplicate. */
  excludeId: idSchema('Contact ID').optional(),
});
export const duplicateContactSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  matchedOn: z.array(z.enum(['email', 'phone'])),
});
export type DuplicateContact = z.infer<typeof duplicateContactSchema>;

/** 'A contact with this email already exists' (or phone, or both) for one match. */
export function duplicateMessage(d: DuplicateContact): string {
  const what =
    d.matchedOn.length === 2
      ? 'this email and phone number'
      : d.matchedOn[0] === 'email'
        ? 'this email'
        : 'this phone number';
  return `A contact with ${what} already exists`;
}

/** The question a save with `ifDuplicate: 'ask'` answers: 'A contact with this phone number already exists: Mary Jones.' */
export function duplicatesQuestion(duplicates: DuplicateContact[]): string {
  return duplicates.map((d) => `${duplicateMessage(d)}: ${`${d.firstName} ${d.lastName}`.trim()}.`).join(' ');
}
/** Keep contact `id`; move everything of `otherId` onto it and delete `otherId`. */
export const mergeContactsSchema = z.object({
  id: idSchema('Contact ID'),
  otherId: idSchema('Other contact ID'),
});
export const contactMergeResultSchema = z.object({
  contact: contactSchema,
  mergedContactId: z.number().int(),
  moved: z.object({
    lists: z.number().int(),
    familyLinks: z.number().int(),
    children: z.number().int(),
    consentEvents: z.number().int(),
    deliveries: z.number().int(),
    signups: z.number().int(),
    teamMembers: z.number().int(),
  }),
});

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

// Contact lists

export const contactListTypeSchema = z.enum(['email', 'sms', 'both'], { error: 'Please select a contact list type' });
export const contactListFieldsSchema = z.object({
  name: requiredTextSchema('List name', 200),
  description: optionalText(2000).optional(),
  type: contactListTypeSchema.default('both'),
  /** On the church's public home (/c/{handle}), where people may join it themselves (issue 28). */
  isPublic: z.boolean({ error: 'Public must be true or false' }).default(false),
  publicDescription: optionalText(500).optional(),
});
export const createContactListSchema = contactListFieldsSchema;
export const updateContactListSchema = contactListFieldsSchema.extend({ id: idSchema('List ID') });
export const contactListSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  type: z.enum(['email', 'sms', 'both']),
  isPublic: z.boolean(),
  publicDescription: z.string(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
  contactCount: z.number().int().optional(),
  /** Same number, under the name part 2 of the spec reads. */
  contactsCount: z.number().int().optional(),
});
export type ContactList = z.infer<typeof contactListSchema>;
/** `include_counts`, as the spec's REST query names it; a boolean or 'true'/'false' text. */
export const listContactListsSchema = z
  .object({ include_counts: z.union([z.boolean(), z.stringbool()]).default(false) })
  .default({ include_counts: false });
export const listIdSchema = z.object({ id: idSchema('List ID') });
export const listMembershipSchema = z.object({ listId: idSchema('List ID'), contactId: idSchema('Contact ID') });

// Family

export const RELATIONSHIPS = [
  { value: 'spouse', label: 'Spouse' },
  { value: 'parent', label: 'Parent' },
  { value: 'child', label: 'Child' },
  { value: 'sibling', label: 'Sibling' },
  { value: 'other', label: 'Other Family' },
] as const;
export const relationshipSchema = z.enum(['spouse', 'parent', 'child', 'sibling', 'other'], {
  error: 'Please select a contact and relationship type.',
});
/** How a relationship reads from the other contact's side (parent ↔ child). */
export function inverseRelationship(r: z.infer<typeof relationshipSchema>): z.infer<typeof relationshipSchema> {
  return r === 'parent' ? 'child' : r === 'child' ? 'parent' : r;
}
export const addFamilyLinkSchema = z.object({
  id: idSchema('Contact ID'),
  relatedContactId: idSchema('Related contact ID'),
  relationship: relationshipSchema,
});
export const familyLinkIdSchema = z.object({ linkId: idSchema('Link ID') });
export const familyItemSchema = z.object({
  link: z.object({
    id: z.number().int(),
    contact1Id: z.number().int(),
    contact2Id: z.number().int(),
    relationship: relationshipSchema,
    createdAt: isoTimestamp,
  }),
  contact: contactSchema,
  relationship: relationshipSchema,
  /** True when this contact is contact2 of the link: a stored 'parent' reads as Child from here. */
  isInverse: z.boolean(),
});

// Children and child groups

const nullableInt = (label: string, min: number, max: number) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? null : v),
    z.coerce
      .number({ error: `${label} must be a number` })
      .int(`${label} must be a whole number`)
      .min(min, `${label} must be at least ${min}`)
      .max(max, `${label} must be at most ${max}`)
      .nullable(),
  );

export const childFieldsSchema = z.object({
  name: z
    .string({ error: "Child's name is required" })
    .trim()
    .min(1, "Child's name is required")
    .max(200)
    .refine(isCleanText, notAllowedMessage("Child's name")),
  dateOfBirth: isoDateSchema.optional(),
  age: nullableInt('Age', 0, 30).optional(),
  groupId: z.preprocess((v) => (v === '' || v === undefined ? null : v), idSchema('Group').nullable()).optional(),
  notes: optionalText(5000).optional(),
});
export const addChildSchema = childFieldsSchema.extend({ id: idSchema('Contact ID') });
/** The child form: the date of birth typed as DD/MM/YYYY. */
export const childFormSchema = childFieldsSchema.extend({ dateOfBirth: dmyDateSchema });
export type ChildFormValues = z.input<typeof childFormSchema>;
/** PATCH: only the fields sent change. */
export const updateChildSchema = childFieldsSchema.partial().extend({ childId: idSchema('Child ID') });
export const childIdSchema = z.object({ childId: idSchema('Child ID') });
export const childToListSchema = z.object({
  childId: idSchema('Child ID'),
  listId: z
    .preprocess((v) => (v === '' ? undefined : v), idSchema('List').optional())
    .refine((v) => v !== undefined, { message: 'Please select a contact list.' }),
});
export const childSchema = z.object({
  id: z.number().int(),
  parentContactId: z.number().int(),
  name: z.string(),
  dateOfBirth: z.string().nullable(),
  /** Worked out from the date of birth when there is one; otherwise the age as entered. */
  age: z.number().int().nullable(),
  groupId: z.number().int().nullable(),
  group: z
    .object({
      id: z.number().int(),
      name: z.string(),
      ageMin: z.number().int().nullable(),
      ageMax: z.number().int().nullable(),
    })
    .nullable(),
  notes: z.string().nullable(),
  listIds: z.array(z.number().int()),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});
export type Child = z.infer<typeof childSchema>;

export const childGroupFieldsSchema = z
  .object({
    name: z
      .string({ error: 'Group name is required' })
      .trim()
      .min(1, 'Group name is required')
      .max(200)
      .refine(isCleanText, notAllowedMessage('Group name')),
    description: optionalText(2000).optional(),
    ageMin: nullableInt('Minimum age', 0, 30).optional(),
    ageMax: nullableInt('Maximum age', 0, 30).optional(),
  })
  .refine((g) => g.ageMin == null || g.ageMax == null || g.ageMin <= g.ageMax, {
    message: 'Maximum age must not be less than minimum age',
    path: ['ageMax'],
  });
export const createChildGroupSchema = childGroupFieldsSchema;
export const updateChildGroupSchema = z.intersection(childGroupFieldsSchema, z.object({ id: idSchema('Group ID') }));
export const childGroupIdSchema = z.object({ id: idSchema('Group ID') });
export const childGroupSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  ageMin: z.number().int().nullable(),
  ageMax: z.number().int().nullable(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});
/** '(min-max years)' as the spec shows a group's ages. */
export function formatAgeRange(g: { ageMin: number | null; ageMax: number | null }): string {
  if (g.ageMin == null && g.ageMax == null) return '';
  return `(${g.ageMin ?? 0}-${g.ageMax ?? '+'} years)`;
}

export const exportContactsSchema = z.object({
  listId: z.preprocess((v) => (v === '' ? undefined : v), idSchema('List ID').optional()),
});
export const csvFileSchema = z.object({ fileName: z.string(), csv: z.string() });
