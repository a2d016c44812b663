import { z } from 'zod';
import { idSchema } from '../common.js';
import { contactSchema, countryCodeSchema } from './contact.js';

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
    /** Their gifts in the ledger, recurring gifts, group memberships and check-ins, now the kept contact's. */
    gifts: z.number().int(),
    recurringGifts: z.number().int(),
    groups: z.number().int(),
    checkIns: z.number().int(),
  }),
});
