import { z } from 'zod';
import { registerSchema } from './auth.js';

// Zod only: the Account page's forms read these, so each message is written once.

const currentPasswordSchema = z
  .string({ error: 'Current password is required' })
  .min(1, 'Current password is required')
  .max(200, 'Password must be at most 200 characters');

/** PATCH /api/account: unsent fields keep their values; a new email needs the current password. */
export const updateAccountSchema = z.object({
  churchName: registerSchema.shape.churchName.optional(),
  email: registerSchema.shape.email.optional(),
  currentPassword: currentPasswordSchema.optional().describe('Required when the email changes'),
});
export type UpdateAccountInput = z.infer<typeof updateAccountSchema>;

export const changePasswordSchema = z.object({
  currentPassword: currentPasswordSchema,
  newPassword: registerSchema.shape.password,
  /** A key made by someone who knew the old password would otherwise keep working. */
  revokeApiKeys: z.boolean().optional().describe('Also revoke all API keys (default true)'),
});
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** The password form: the API's fields plus a confirmation that must match. */
export const changePasswordFormSchema = changePasswordSchema
  .extend({ confirmPassword: z.string().min(1, 'Please confirm the new password') })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });
export type ChangePasswordFormValues = z.infer<typeof changePasswordFormSchema>;

export const changePasswordResultSchema = z.object({
  ok: z.literal(true),
  /** How many other sessions of this account were signed out. */
  signedOutSessions: z.number().int(),
  /** How many API keys were revoked with it (0 when asked to keep them). */
  revokedApiKeys: z.number().int(),
});

/** A church's daily recipient limit for email and SMS campaigns. */
export const sendingLimitSchema = z.object({
  email: z.string(),
  emailVerified: z.boolean(),
  emailVerifiedAt: z.string().nullable().describe('ISO 8601'),
  /** People a day; null: no limit. */
  limit: z.number().int().nullable(),
  /** Why: the account email is not verified yet, an administrator set it, or no limit. */
  source: z.enum(['unverified', 'admin', 'none']),
  /** Recipients that campaign starts enqueued in the last 24 hours (email and SMS together). */
  usedLast24h: z.number().int(),
  remaining: z.number().int().nullable(),
});
export type SendingLimit = z.infer<typeof sendingLimitSchema>;

/** Email warm-up today (EMAIL_WARMUP): a new church's first week, 50, 100, 200, … emails a day. */
export const emailWarmupSchema = z.object({
  /** 1–7, each 24 hours from the church's sign-up. */
  day: z.number().int(),
  days: z.number().int(),
  /** Emails today's warm-up allows. */
  limit: z.number().int(),
  sentToday: z.number().int(),
  remainingToday: z.number().int(),
  /** When the next day (and its larger number) starts; emails past today's number wait until then. */
  nextDayAt: z.string().describe('ISO 8601'),
  /** Tomorrow's number; null on the last day. */
  nextDayLimit: z.number().int().nullable(),
});
export type EmailWarmup = z.infer<typeof emailWarmupSchema>;

export const accountStatusSchema = sendingLimitSchema.extend({
  /** With the platform's EMAIL_WARMUP, in the church's first week: today's warm-up number; else null. */
  emailWarmup: emailWarmupSchema.nullable(),
  /** No SMTP server is configured: emails are kept in the outbox. */
  outbox: z.boolean(),
  /** With the outbox: the latest verification email kept there. */
  verificationEmail: z
    .object({ to: z.string(), subject: z.string(), createdAt: z.string(), link: z.string() })
    .nullable(),
});
export type AccountStatus = z.infer<typeof accountStatusSchema>;

export const verificationSentSchema = z.object({
  ok: z.literal(true),
  to: z.string(),
  outbox: z.boolean(),
  message: z.string(),
});
