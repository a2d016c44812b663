import { z } from 'zod';
import { apiKeyIdSchema, apiKeySchema, createApiKeySchema, createdApiKeySchema } from '../../schemas/api-keys.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../../services/api-keys/api-keys.js';
import { router, sessionProcedure } from '../../trpc.js';

// Managed from Settings with the session: a key cannot list, mint or revoke keys.
export const apiKeysRouter = router({
  list: sessionProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/api-keys',
        summary: "The church's API keys that still work (never their tokens)",
        tag: 'Settings',
      },
    })
    .output(z.array(apiKeySchema))
    .query(({ ctx }) => listApiKeys(ctx.db, ctx.tenantId)),
  create: sessionProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/api-keys',
        summary: 'Create a named API key; the answer holds its token, shown this once only',
        tag: 'Settings',
        status: 201,
      },
    })
    .input(createApiKeySchema)
    .output(createdApiKeySchema)
    .mutation(({ ctx, input }) => createApiKey(ctx.db, ctx.tenantId, { ...input, actorId: ctx.user.id })),
  revoke: sessionProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/api-keys/{id}',
        summary: 'Revoke an API key: it stops working at once',
        tag: 'Settings',
      },
    })
    .input(apiKeyIdSchema)
    .output(z.object({ success: z.literal(true) }))
    .mutation(({ ctx, input }) => revokeApiKey(ctx.db, ctx.tenantId, input)),
});
