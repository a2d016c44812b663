import { z } from 'zod';
import { roleSchema, sessionUserSchema } from './auth.js';
import { idSchema, isoTimestamp } from './common.js';

export const adminUserSchema = z.object({
  id: z.number().int(),
  churchName: z.string(),
  username: z.string(),
  email: z.string(),
  role: roleSchema,
  createdAt: isoTimestamp.describe('ISO 8601'),
  emailVerified: z.boolean(),
  /** The administrator's daily recipient limit for this church; null: the default rule. */
  dailyRecipientLimit: z.number().int().nullable(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const impersonateSchema = z.object({
  id: idSchema('User id'),
});

export const impersonationResultSchema = z.object({
  message: z.string(),
  user: sessionUserSchema,
});

/** The largest daily recipient limit an administrator can set. */
export const MAX_DAILY_RECIPIENT_LIMIT = 10_000_000;

/** An administrator lifts or lowers a church's daily limit; null returns it to the default rule. */
export const setDailyLimitSchema = z.object({
  id: idSchema('User id'),
  dailyRecipientLimit: z
    .number({ error: 'Enter a whole number of people, or choose the default' })
    .int('Enter a whole number of people')
    .min(0, 'The limit cannot be negative')
    .max(MAX_DAILY_RECIPIENT_LIMIT, 'The limit can be at most 10,000,000 people a day')
    .nullable()
    .describe('People a day; null: the default (100 until the email is verified, then no limit)'),
});
export type SetDailyLimitInput = z.infer<typeof setDailyLimitSchema>;
