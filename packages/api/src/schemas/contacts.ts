// The contacts' schemas, one file per part of the feature. Zod only: the contact form in the
// browser validates with these same schemas.

export { idSchema } from './common.js';
export * from './contacts/dates.js';
export {
  countryCodeSchema,
  STAFF_ROLES,
  staffRoleSchema,
  contactMetadataSchema,
  contactMetadataPatchSchema,
  contactFieldsSchema,
  ifDuplicateSchema,
  createContactSchema,
  contactFormSchema,
  type ContactFormValues,
  updateContactSchema,
  consentStatusSchema,
  consentChannelSchema,
  contactSchema,
  type Contact,
  contactTabSchema,
  type ContactTab,
  findContactsSchema,
  contactPageSchema,
  type ContactPage,
  contactIdSchema,
  contactTagsSchema,
  type ContactTags,
  updateConsentSchema,
  consentEventSchema,
  exportContactsSchema,
  csvFileSchema,
} from './contacts/contact.js';
export * from './contacts/duplicates.js';
export * from './contacts/lists.js';
export * from './contacts/family.js';
export * from './contacts/children.js';
