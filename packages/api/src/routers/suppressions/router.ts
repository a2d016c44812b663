import { z } from 'zod';
import {
  suppressedCountInputSchema,
  suppressedCountSchema,
  suppressionIdSchema,
  suppressionSchema,
} from '../../schemas/suppressions.js';
import { countSuppressed, listSuppressions, removeSuppression } from '../../services/deliverability/suppressions.js';
import { protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Suppressions');

export const suppressionsRouter = router({
  list: protectedProcedure
    .meta(
      rest.get('/api/suppressions', 'Addresses no email of the church reaches (bounced or complained), newest first'),
    )
    .output(z.array(suppressionSchema))
    .query(({ ctx }) => listSuppressions(ctx.db, ctx.tenantId)),
  remove: protectedProcedure
    .meta(rest.delete('/api/suppressions/{id}', 'Take an address off the list (kept in the log); sends reach it again'))
    .input(suppressionIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => removeSuppression(ctx.db, ctx.tenantId, ctx.effectiveUser.id, input)),
  count: protectedProcedure
    .meta(
      rest.post(
        '/api/suppressions/count',
        'Before a send (a journey enrolment, requests): how many addresses of the chosen contacts, or of a list, are suppressed and will be skipped',
        { status: 200, errors: [404] },
      ),
    )
    .input(suppressedCountInputSchema)
    .output(suppressedCountSchema)
    .query(({ ctx, input }) => countSuppressed(ctx.db, ctx.tenantId, input)),
});
