import { z } from 'zod';
import { idSchema, isoTimestamp } from '../common.js';
import { contactSchema } from './contact.js';

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
export type Relationship = z.infer<typeof relationshipSchema>;
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
