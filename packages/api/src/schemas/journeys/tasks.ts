import { z } from 'zod';
import { idSchema, isoTimestamp } from '../common.js';

// Follow-up tasks (a journey's task step; later also keywords). The church has one login: a task
// is for one of its service-staff contacts (emailed when assigned) or for the account itself.

export const taskStatusSchema = z.enum(['open', 'done']);
export const taskOutputSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  notes: z.string(),
  status: taskStatusSchema,
  dueOn: z.string().describe('YYYY-MM-DD in the church’s time zone'),
  /** null: the church's own account. */
  assignee: z.object({ contactId: z.number().int().nullable(), name: z.string() }),
  /** The person to follow up. */
  contact: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  journey: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  createdAt: isoTimestamp,
  doneAt: isoTimestamp.nullable(),
});
export const listTasksSchema = z.object({
  status: taskStatusSchema.optional(),
  /** A staff contact's id, or 'me' for the account's own tasks. */
  assignee: z.union([z.literal('me'), idSchema('Staff member')]).optional(),
  cursor: idSchema('Cursor').optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
/** PATCH a task: mark done (or open again) and/or reassign. */
export const updateTaskSchema = z.object({
  id: idSchema('Task ID'),
  status: taskStatusSchema.optional(),
  assigneeContactId: idSchema('Staff member').nullable().optional(),
});

export const taskPageSchema = z.object({ tasks: z.array(taskOutputSchema), next: z.number().int().nullable() });
