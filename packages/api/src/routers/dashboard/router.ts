import { dashboardStatsSchema } from '../../schemas/dashboard.js';
import { dashboardStats } from '../../services/dashboard/stats.js';
import { protectedProcedure, router } from '../../trpc.js';

export const dashboardRouter = router({
  stats: protectedProcedure.output(dashboardStatsSchema).query(({ ctx }) => dashboardStats(ctx.db, ctx.tenantId)),
});
