import { z } from 'zod';
import { idSchema, isoTimestamp, optionalTextSchema } from '../common.js';
import { ASSIGNMENT_STATUSES } from './options.js';
import { HHMM } from '../../shared/service-planner.js';

// ---- Assignments ----

/** One of the plan's service times ('09:00'), or null for all of them. */
const assignmentTimeSchema = z
  .preprocess(
    (v) => (v === '' ? null : v),
    z
      .string({ error: 'Service time must be a time as HH:MM' })
      .regex(HHMM, 'Service time must be a time as HH:MM')
      .nullable(),
  )
  .optional();

export const createAssignmentSchema = z.object({
  planId: idSchema('Plan ID'),
  memberId: idSchema('Member ID'),
  positionId: idSchema('Position ID').nullable().optional(),
  itemId: idSchema('Item ID').nullable().optional(),
  notes: optionalTextSchema('Notes', 1000).optional(),
  serviceTime: assignmentTimeSchema,
  /** Schedule even when the person is blocked out that day or already in this plan. */
  force: z.boolean().default(false),
});
export const updateAssignmentSchema = z.object({
  id: idSchema('Assignment ID'),
  positionId: idSchema('Position ID').nullable().optional(),
  itemId: idSchema('Item ID').nullable().optional(),
  status: z.enum(ASSIGNMENT_STATUSES, { error: 'Status must be scheduled, confirmed or declined' }).optional(),
  notes: optionalTextSchema('Notes', 1000).optional(),
  serviceTime: assignmentTimeSchema,
});
export const assignmentIdSchema = z.object({ id: idSchema('Assignment ID') });
export const assignmentSchema = z.object({
  id: z.number().int(),
  planId: z.number().int(),
  memberId: z.number().int(),
  memberName: z.string(),
  memberEmail: z.string().nullable(),
  positionId: z.number().int().nullable(),
  positionName: z.string().nullable(),
  itemId: z.number().int().nullable(),
  /** The service time this is for ('09:00'); null: all of the plan's times. */
  serviceTime: z.string().nullable(),
  status: z.enum(ASSIGNMENT_STATUSES),
  notes: z.string().nullable(),
  requestedAt: isoTimestamp.nullable(),
  respondedAt: isoTimestamp.nullable(),
  /** The last request could not be sent (after its retries): the reason. Null once asked again. */
  requestError: z.string().nullable(),
  /** Why this may be a problem: blocked out that day, or more than once in this plan. */
  warnings: z.array(z.string()),
});
export type Assignment = z.infer<typeof assignmentSchema>;

export const sendRequestsResultSchema = z.object({
  sent: z.number().int(),
  skippedNoEmail: z.array(z.string()),
  message: z.string(),
});

/** What the person sees on the confirmation page (no login: the token is the key). */
export const requestTokenSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'This link is not valid'),
});
export const respondSchema = requestTokenSchema.extend({
  response: z.enum(['accept', 'decline'], { error: 'Response must be accept or decline' }),
});
export const requestDetailsSchema = z.object({
  churchName: z.string(),
  memberName: z.string(),
  planTitle: z.string(),
  date: z.string(),
  /** The plan's start. */
  startTime: z.string().nullable(),
  /** The assignment's own service time ('HH:MM'), null when it is for all of the plan's times. */
  serviceTime: z.string().nullable(),
  location: z.string().nullable(),
  positionName: z.string().nullable(),
  status: z.enum(ASSIGNMENT_STATUSES),
});
