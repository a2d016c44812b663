import { z } from 'zod';
import { requiredTextSchema, timeZoneSchema } from './common.js';
import { isCleanText, notAllowedMessage } from '../shared/text.js';
import { countrySchema } from './settings.js';

// Zod only: the browser imports this file for its forms, so each message is written once.

export const loginSchema = z.object({
  username: z
    .string({ error: 'Username is required' })
    .max(256, 'Username must be at most 256 characters')
    .trim()
    .min(1, 'Username is required')
    .refine(isCleanText, notAllowedMessage('Username')),
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(1024, 'Password must be at most 1024 characters'),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const roleSchema = z.enum(['admin', 'church']);

/** What `POST /api/register` takes (the form's confirmPassword is not sent). */
export const registerSchema = z.object({
  username: requiredTextSchema('Username', 64),
  // 8 at least. The spec states only the confirmation's rule (at least 6, with its
  // message, kept on confirmPassword below); a password must match it, so 8 holds for both.
  password: z
    .string({ error: 'Password is required' })
    .min(8, 'Password must be at least 8 characters')
    .max(256, 'Password must be at most 256 characters'),
  churchName: requiredTextSchema('Church name', 200),
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .max(320, 'Please enter a valid email address')
    .pipe(z.email('Please enter a valid email address')),
  /** The church's time zone (the browser's at registration); UTC when left out. */
  timeZone: timeZoneSchema.optional(),
  /** The church's country (ISO 3166); left out, its time zone's (none for UTC). */
  country: countrySchema.optional(),
  /** Accepted for compatibility with the spec's payload; the server decides the role. */
  role: roleSchema.optional(),
  /** The one-time token printed in the server log at first start: this account becomes the administrator. */
  setupToken: z.string().max(200).optional(),
});
export type RegisterInput = z.infer<typeof registerSchema>;

/** The register form: the API's fields plus confirmPassword, which must match. */
export const registerFormSchema = registerSchema
  .extend({
    confirmPassword: z.string().min(6, 'Password must be at least 6 characters').max(256),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });
export type RegisterFormValues = z.infer<typeof registerFormSchema>;

export const sessionUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  churchName: z.string(),
  email: z.string(),
  role: roleSchema,
  _impersonatedBy: z
    .object({ id: z.number().int(), username: z.string() })
    .optional()
    .describe('Present while a platform administrator is impersonating this church'),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const okSchema = z.object({ ok: z.literal(true), message: z.string() });
