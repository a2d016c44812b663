import { z } from 'zod';
import { apiKeyIdSchema, apiKeySchema, createApiKeySchema, createdApiKeySchema } from '../../schemas/api-keys.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../../services/api-keys/api-keys.js';
import { router, sessionProcedure } from '../../trpc.js';

// Managed from Settings with the session: a key cannot list, mint or revoke keys.
export const apiKeysRouter = router({
  list: sessionProcedure.output(z.array(apiKeySchema)).query(({ ctx }) => listApiKeys(ctx.db, ctx.tenantId)),
  create: sessionProcedure
    .input(createApiKeySchema)
    .output(createdApiKeySchema)
    .mutation(({ ctx, input }) => createApiKey(ctx.db, ctx.tenantId, { ...input, actorId: ctx.user.id })),
  revoke: sessionProcedure
    .input(apiKeyIdSchema)
    .output(z.object({ success: z.literal(true) }))
    .mutation(({ ctx, input }) => revokeApiKey(ctx.db, ctx.tenantId, input)),
});
