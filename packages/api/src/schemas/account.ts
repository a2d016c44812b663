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
});
