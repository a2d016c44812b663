import { z } from 'zod';
import { idSchema, isoTimestamp, requiredTextSchema } from '../common.js';
import { dateSchema } from './fields.js';

// ---- Plan templates ----

export const createTemplateSchema = z.object({
  planId: idSchema('Plan ID'),
  name: requiredTextSchema('Template name', 200),
});
export const templateIdSchema = z.object({ id: idSchema('Template ID') });
export const planTemplateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  title: z.string(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  location: z.string().nullable(),
  serviceTimes: z.array(z.string()),
  items: z.array(z.object({ title: z.string(), duration: z.number().int(), songId: z.number().int().nullable() })),
  /** Positions a plan from it needs (a position twice needs two people). */
  positionsNeeded: z.array(z.number().int()),
  createdAt: isoTimestamp,
});
export const MAX_TEMPLATE_WEEKS = 52;
export const plansFromTemplateSchema = z.object({
  id: idSchema('Template ID'),
  date: dateSchema('Date'),
  /** One plan on `date`, or one every week for this many weeks. */
  weeks: z.coerce
    .number({ error: `Weeks must be between 1 and ${MAX_TEMPLATE_WEEKS}` })
    .int(`Weeks must be between 1 and ${MAX_TEMPLATE_WEEKS}`)
    .min(1, `Weeks must be between 1 and ${MAX_TEMPLATE_WEEKS}`)
    .max(MAX_TEMPLATE_WEEKS, `Weeks must be between 1 and ${MAX_TEMPLATE_WEEKS}`)
    .default(1),
});
export const plansFromTemplateResultSchema = z.object({
  plans: z.array(z.object({ id: z.number().int(), date: z.string(), title: z.string() })),
});
