import { dashboardStatsSchema } from '../../schemas/dashboard.js';
import { dashboardStats } from '../../services/dashboard/stats.js';
import { protectedProcedure, router } from '../../trpc.js';

export const dashboardRouter = router({
  stats: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/dashboard/stats',
        summary: 'Contacts, email open rate, SMS delivery rate, page visits, recent and upcoming campaigns',
        tag: 'Dashboard',
      },
    })
    .output(dashboardStatsSchema)
    .query(({ ctx }) => dashboardStats(ctx.db, ctx.tenantId)),
});
