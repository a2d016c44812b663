import { z } from 'zod';

// ---- Reminders and substitutes ----

/** The planner's settings: reminder days before a plan, and how long a substitute offer stays open. */
export const plannerSettingsSchema = z.object({
  reminderDays: z.array(z.number().int()),
  substituteHours: z.number().int(),
});
export const updatePlannerSettingsSchema = z.object({
  reminderDays: z
    .array(
      z
        .number({ error: 'Reminder days must be numbers' })
        .int('Reminder days must be whole days')
        .min(1, 'A reminder is at least 1 day before')
        .max(7, 'A reminder is at most 7 days before'),
      { error: 'Reminder days must be a list' },
    )
    .max(4, 'At most 4 reminders')
    // Each day once, the earliest reminder first.
    .transform((days) => [...new Set(days)].sort((a, b) => b - a))
    .optional(),
  substituteHours: z
    .number({ error: 'Hours to find a substitute must be a number' })
    .int('Hours to find a substitute must be whole hours')
    .min(1, 'Hours to find a substitute must be at least 1')
    .max(336, 'Hours to find a substitute must be at most 336 (2 weeks)')
    .optional(),
});
