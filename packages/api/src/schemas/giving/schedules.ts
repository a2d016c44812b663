import { z } from 'zod';
import { idSchema, isoTimestamp } from '../common.js';
import { FREQUENCIES } from './amounts.js';
import { dateSchema } from './dates.js';
import { giftLineSchema, giftLinesSchema } from './gifts.js';

// ---- Recurring schedules

export const SCHEDULE_STATUSES = ['pending', 'active', 'paused', 'cancelled', 'failing'] as const;

export const scheduleSchema = z.object({
  id: z.number().int(),
  contactId: z.number().int().nullable(),
  donorName: z.string(),
  donorEmail: z.string(),
  frequency: z.enum(FREQUENCIES),
  startDate: z.string(),
  nextDate: z.string(),
  status: z.enum(SCHEDULE_STATUSES),
  pausedUntil: z.string().nullable(),
  amountCents: z.number().int(),
  feeCents: z.number().int(),
  coverFees: z.boolean(),
  failedAttempts: z.number().int(),
  lastFailure: z.string().nullable(),
  lines: z.array(giftLineSchema),
  createdAt: isoTimestamp,
});

export const findSchedulesSchema = z
  .object({
    status: z
      .enum(SCHEDULE_STATUSES, { error: 'Status must be pending, active, paused, cancelled or failing' })
      .optional(),
    fundId: idSchema('Fund').optional(),
  })
  .default({});

export const updateScheduleSchema = z.object({
  id: idSchema('Schedule'),
  status: z.enum(['active', 'paused', 'cancelled'], { error: 'Status must be active, paused or cancelled' }).optional(),
  pausedUntil: dateSchema('Paused until').nullish(),
  frequency: z
    .enum(['weekly', 'every_two_weeks', 'monthly', 'first_and_fifteenth', 'yearly'], {
      error: 'Frequency must be weekly, every two weeks, monthly, 1st and 15th or yearly',
    })
    .optional(),
  lines: giftLinesSchema.optional(),
  nextDate: dateSchema('Next date').optional(),
});

export const cardUpdateSchema = z.object({
  token: z.string({ error: 'Token is required' }).max(64, 'Recurring gift not found'),
});
export const cardUpdateResultSchema = z.object({
  intentId: z.string(),
  clientSecret: z.string(),
  mode: z.enum(['stripe', 'demo', 'disabled']),
});
