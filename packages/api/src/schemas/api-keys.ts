import { z } from 'zod';
import { idSchema, requiredTextSchema } from './common.js';

/** 'read': GET routes and tRPC queries only; 'write': read and write. */
export const API_KEY_SCOPES = ['read', 'write'] as const;
export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES, { error: 'Scope must be read or write' });
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>;
/** What a read key calling a write hears (403). */
export const READ_ONLY_KEY_REFUSED = 'This API key can only read';

export const apiKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  scope: apiKeyScopeSchema,
  /** The first characters of the token, to tell keys apart; the token itself is shown once. */
  tokenPrefix: z.string(),
  createdAt: z.date(),
  lastUsedAt: z.date().nullable(),
  /** The account that made the key; null for keys made before this was recorded. */
  createdByUserId: z.number().int().nullable(),
  /** That account's username ('Created by …' in Settings). */
  createdBy: z.string().nullable(),
});

export const createApiKeySchema = z.object({
  name: requiredTextSchema('Name', 100),
  /** Read and write unless told otherwise (as keys made before scopes). */
  scope: apiKeyScopeSchema.default('write'),
});

/** The new key with its token: the only time the token is ever shown. */
export const createdApiKeySchema = apiKeySchema.extend({ token: z.string() });

export const apiKeyIdSchema = z.object({ id: idSchema() });
