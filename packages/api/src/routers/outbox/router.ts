import { z } from 'zod';
import { outboxMessageSchema, outboxQuerySchema } from '../../schemas/outbox.js';
import { listOutbox } from '../../services/email-campaigns/outbox.js';
import { protectedProcedure, router } from '../../trpc.js';

export const outboxRouter = router({
  list: protectedProcedure
    .input(outboxQuerySchema)
    .output(z.array(outboxMessageSchema))
    .query(({ ctx, input }) => listOutbox(ctx.db, ctx.tenantId, input)),
});
