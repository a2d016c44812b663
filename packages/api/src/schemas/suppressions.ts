import { z } from 'zod';
import { idSchema } from './common.js';

/** An address on the church's suppression list: no send of the church reaches it. */
export const suppressionSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  reason: z.enum(['hard_bounce', 'soft_bounces', 'complaint']),
  /** The reason in words: 'Hard bounce', 'Soft bounces', 'Complaint'. */
  reasonText: z.string(),
  /** The mail system's status and diagnostic, or the complaint's kind. */
  detail: z.string(),
  createdAt: z.string(),
  /** The message that caused it. */
  deliveryId: z.number().int().nullable(),
  campaign: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type Suppression = z.infer<typeof suppressionSchema>;
export const suppressionIdSchema = z.object({ id: idSchema('Suppression ID') });

/** Before a send to chosen contacts, a list or team members: how many of their addresses are suppressed. */
export const suppressedCountInputSchema = z
  .object({
    contactIds: z.array(idSchema('Contact ID')).min(1, 'Choose at least one contact').max(5000).optional(),
    listId: idSchema('List ID').optional(),
    /** Service planner team members (their own addresses), for requests. */
    memberIds: z.array(idSchema('Member ID')).min(1, 'Choose at least one member').max(5000).optional(),
  })
  .refine((v) => (v.contactIds ? 1 : 0) + (v.listId ? 1 : 0) + (v.memberIds ? 1 : 0) === 1, {
    message: 'Choose contacts, a list or team members',
    path: ['contactIds'],
  });
export const suppressedCountSchema = z.object({ suppressed: z.number().int() });
