import { bellSchema, waitingCountsSchema } from '../../schemas/waiting.js';
import { bellItems, markBellRead, waitingCounts } from '../../services/waiting/waiting.js';
import { protectedProcedure, router } from '../../trpc.js';

// The reader is the account signed in: an administrator acting as a church keeps their own mark.
export const waitingRouter = router({
  /** The sidebar's badges and the bell's count (the web polls it every minute and on focus). */
  counts: protectedProcedure
    .output(waitingCountsSchema)
    .query(({ ctx }) => waitingCounts(ctx.readDb, { tenantId: ctx.tenantId, readerId: ctx.user.id })),
  bell: protectedProcedure
    .output(bellSchema)
    .query(({ ctx }) => bellItems(ctx.db, { tenantId: ctx.tenantId, readerId: ctx.user.id })),
  markAllRead: protectedProcedure
    .output(waitingCountsSchema)
    .mutation(({ ctx }) => markBellRead(ctx.db, { tenantId: ctx.tenantId, readerId: ctx.user.id })),
});
