import { z } from 'zod';
import { roleSchema, sessionUserSchema } from './auth.js';

export const adminUserSchema = z.object({
  id: z.number().int(),
  churchName: z.string(),
  username: z.string(),
  email: z.string(),
  role: roleSchema,
  createdAt: z.string().describe('ISO 8601'),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const impersonateSchema = z.object({
  id: z.coerce
    .number({ error: 'User id must be a number' })
    .int('User id must be a number')
    .positive('User id must be a number'),
});

export const impersonationResultSchema = z.object({
  message: z.string(),
  user: sessionUserSchema,
});
