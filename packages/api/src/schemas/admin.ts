import { z } from 'zod';
import { roleSchema, sessionUserSchema } from './auth.js';
import { idSchema } from './common.js';

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
  id: idSchema('User id'),
});

export const impersonationResultSchema = z.object({
  message: z.string(),
  user: sessionUserSchema,
});
