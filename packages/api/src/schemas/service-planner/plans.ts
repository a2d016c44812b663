import { z } from 'zod';
import { idSchema, isoTimestamp, optionalTextSchema, requiredTextSchema } from '../common.js';
import { HHMM, minutesOf } from '../../shared/service-planner.js';
import { PLAN_STATUSES } from './options.js';
import { announcementSchema } from './announce.js';
import { assignmentSchema } from './assignments.js';
import { dateSchema, timeSchema } from './fields.js';
import { itemSchema } from './items.js';

// ---- Plans ----

const planFields = {
  title: requiredTextSchema('Title', 200),
  date: dateSchema('Date'),
  startTime: timeSchema('Start time').optional(),
  endTime: timeSchema('End time').optional(),
  location: optionalTextSchema('Location', 300).optional(),
  description: optionalTextSchema('Description', 5000).optional(),
  theme: optionalTextSchema('Theme', 300).optional(),
  notes: optionalTextSchema('Notes', 5000).optional(),
  status: z.enum(PLAN_STATUSES, { error: 'Status must be draft, published or completed' }).optional(),
  /** Each time the service is held ('09:00', '11:00'), at most 6; none: one service. */
  serviceTimes: z
    .array(
      z.string({ error: 'Service times must be times as HH:MM' }).regex(HHMM, 'Service times must be times as HH:MM'),
    )
    .max(6, 'A plan can have at most 6 service times')
    .transform((times) => [...new Set(times)].sort())
    .optional(),
};

function endAfterStart(v: { startTime?: string | null; endTime?: string | null }, ctx: z.RefinementCtx) {
  if (v.startTime && v.endTime && minutesOf(v.endTime) <= minutesOf(v.startTime)) {
    ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'End time must be after the start time' });
  }
}

export const createPlanSchema = z.object(planFields).superRefine(endAfterStart);
export const updatePlanSchema = z
  .object({
    id: idSchema('Plan ID'),
    ...planFields,
    title: planFields.title.optional(),
    date: planFields.date.optional(),
  })
  .superRefine(endAfterStart);
export const planIdSchema = z.object({ id: idSchema('Plan ID') });
export const duplicatePlanSchema = z.object({
  id: idSchema('Plan ID'),
  date: dateSchema('Date'),
  title: requiredTextSchema('Title', 200).optional(),
});
export const listPlansSchema = z
  .object({ when: z.enum(['upcoming', 'past', 'all'], { error: 'When must be upcoming, past or all' }).default('all') })
  .default({ when: 'all' });

export const planSummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  date: z.string(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  /** The times the service is held, in order; empty for one service. */
  serviceTimes: z.array(z.string()),
  /** Positions the plan needs (from its template; a position twice needs two people). */
  positionsNeeded: z.array(z.number().int()),
  location: z.string().nullable(),
  description: z.string().nullable(),
  status: z.enum(PLAN_STATUSES),
  theme: z.string().nullable(),
  notes: z.string().nullable(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
  itemCount: z.number().int(),
  team: z.object({ confirmed: z.number().int(), total: z.number().int() }),
});
export type PlanSummary = z.infer<typeof planSummarySchema>;

// ---- Plan detail ----

export const planDetailSchema = planSummarySchema.extend({
  items: z.array(itemSchema),
  assignments: z.array(assignmentSchema),
  announcements: z.array(announcementSchema),
  times: z.object({
    totalMinutes: z.number().int(),
    endsAt: z.string().nullable(),
    plannedMinutes: z.number().int().nullable(),
    overBy: z.number().int(),
  }),
});
export type PlanDetail = z.infer<typeof planDetailSchema>;
