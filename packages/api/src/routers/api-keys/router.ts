import { z } from 'zod';
import { apiKeyIdSchema, apiKeySchema, createApiKeySchema, createdApiKeySchema } from '../../schemas/api-keys.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../../services/api-keys/api-keys.js';
import { router, sessionProcedure } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Settings');

// Managed from Settings with the session: a key cannot list, mint or revoke keys.
export const apiKeysRouter = router({
  list: sessionProcedure
    .meta(rest.get('/api/api-keys', "The church's API keys that still work (never their tokens)"))
    .output(z.array(apiKeySchema))
    .query(({ ctx }) => listApiKeys(ctx.db, ctx.tenantId)),
  create: sessionProcedure
    .meta(
      rest.post('/api/api-keys', 'Create a named API key; the answer holds its token, shown this once only', {
        status: 201,
      }),
    )
    .input(createApiKeySchema)
    .output(createdApiKeySchema)
    .mutation(({ ctx, input }) => createApiKey(ctx.db, ctx.tenantId, { ...input, actorId: ctx.user.id })),
  revoke: sessionProcedure
    .meta(rest.delete('/api/api-keys/{id}', 'Revoke an API key: it stops working at once'))
    .input(apiKeyIdSchema)
    .output(z.object({ success: z.literal(true) }))
    .mutation(({ ctx, input }) => revokeApiKey(ctx.db, ctx.tenantId, input)),
});
