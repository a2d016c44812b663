import { z } from 'zod';
import { idSchema, requiredTextSchema } from './common.js';

export const apiKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The first characters of the token, to tell keys apart; the token itself is shown once. */
  tokenPrefix: z.string(),
  createdAt: z.date(),
  lastUsedAt: z.date().nullable(),
  /** The account that made the key; null for keys made before this was recorded. */
  createdByUserId: z.number().int().nullable(),
  /** That account's username ('Created by …' in Settings). */
  createdBy: z.string().nullable(),
});

export const createApiKeySchema = z.object({ name: requiredTextSchema('Name', 100) });

/** The new key with its token: the only time the token is ever shown. */
export const createdApiKeySchema = apiKeySchema.extend({ token: z.string() });

export const apiKeyIdSchema = z.object({ id: idSchema() });
