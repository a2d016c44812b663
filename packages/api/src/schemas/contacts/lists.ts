import { z } from 'zod';
import { idSchema, isoTimestamp, requiredTextSchema } from '../common.js';
import { contactTabSchema, contactTextSchema, findContactsSchema } from './contact.js';

// Contact lists

export const contactListTypeSchema = z.enum(['email', 'sms', 'both'], { error: 'Please select a contact list type' });
export const contactListFieldsSchema = z.object({
  name: requiredTextSchema('List name', 200),
  description: contactTextSchema(2000).optional(),
  type: contactListTypeSchema.default('both'),
  /** On the church's public home (/c/{handle}), where people may join it themselves. */
  isPublic: z.boolean({ error: 'Public must be true or false' }).default(false),
  publicDescription: contactTextSchema(500).optional(),
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

/** Every contact matching a search (and tab) added to a list at once: "Select all" in the picker. */
export const addMatchingToListSchema = z.object({
  listId: idSchema('List ID'),
  search: findContactsSchema.shape.search,
  tab: contactTabSchema.default('all'),
});
export const addMatchingToListResultSchema = z.object({ listId: z.number().int(), added: z.number().int() });
