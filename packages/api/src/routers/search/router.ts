import { searchInputSchema, searchOutputSchema } from '../../schemas/search.js';
import { searchEverything } from '../../services/search/search.js';
import { protectedProcedure, router } from '../../trpc.js';

export const searchRouter = router({
  /** The header's search box, as the church types. */
  everything: protectedProcedure
    .input(searchInputSchema)
    .output(searchOutputSchema)
    .query(({ ctx, input }) => searchEverything(ctx.readDb, ctx.tenantId, input)),
});
