import { z } from 'zod';
import { timeZoneSchema } from './common.js';

// Zod only: the browser imports this file for its forms, so each message is written once.

export const loginSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required'),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required'),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const roleSchema = z.enum(['admin', 'church']);

/** What `POST /api/register` takes (the form's confirmPassword is not sent). */
export const registerSchema = z.object({
  username: z
    .string({ error: 'Username is required' })
    .trim()
    .min(1, 'Username is required')
    .max(64, 'Username must be at most 64 characters'),
  password: z
    .string({ error: 'Password is required' })
    .min(6, 'Password must be at least 6 characters')
    .max(200, 'Password must be at most 200 characters'),
  churchName: z
    .string({ error: 'Church name is required' })
    .trim()
    .min(1, 'Church name is required')
    .max(200, 'Church name must be at most 200 characters'),
  email: z.string({ error: 'Email is required' }).trim().pipe(z.email('Please enter a valid email address')),
  /** The church's time zone (the browser's at registration); UTC when left out. */
  timeZone: timeZoneSchema.optional(),
  /** Accepted for compatibility with the spec's payload; the server decides the role. */
  role: roleSchema.optional(),
});
export type RegisterInput = z.infer<typeof registerSchema>;

/** The register form: the API's fields plus confirmPassword, which must match. */
export const registerFormSchema = registerSchema
  .extend({
    confirmPassword: z.string().min(6, 'Password must be at least 6 characters'),
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
