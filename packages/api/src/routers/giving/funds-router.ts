import {
  createFundSchema,
  deleteFundResultSchema,
  fundIdSchema,
  fundSchema,
  listFundsSchema,
  updateFundSchema,
} from '../../schemas/giving.js';
import { z } from 'zod';
import { createFund, deleteFund, listFunds, updateFund } from '../../services/giving/funds.js';
import { protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Giving');

export const fundsRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/funds', "The church's funds (status=active|archived|all), active first, 'General' first"))
    .input(listFundsSchema)
    .output(z.array(fundSchema))
    .query(({ ctx, input }) => listFunds(ctx.db, ctx.tenantId, input)),
  create: protectedProcedure
    .meta(rest.post('/api/funds', 'Add a fund: name, description, isPublic', { status: 201, errors: [409] }))
    .input(createFundSchema)
    .output(fundSchema)
    .mutation(({ ctx, input }) => createFund(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(
      rest.patch('/api/funds/{id}', 'Change a fund (unsent fields keep their values); status archived|active', {
        errors: [409],
      }),
    )
    .input(updateFundSchema)
    .output(fundSchema)
    .mutation(({ ctx, input }) => updateFund(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(rest.delete('/api/funds/{id}', 'Delete a fund; a fund with gifts is archived instead (outcome says which)'))
    .input(fundIdSchema)
    .output(deleteFundResultSchema)
    .mutation(({ ctx, input }) => deleteFund(ctx.db, ctx.tenantId, input)),
});
