import { dashboardStatsSchema } from '../../schemas/dashboard.js';
import { dashboardStats } from '../../services/dashboard/stats.js';
import { protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Dashboard');

export const dashboardRouter = router({
  stats: protectedProcedure
    .meta(
      rest.get(
        '/api/dashboard/stats',
        'Contacts, email open rate, SMS delivery rate, page visits, recent and upcoming campaigns',
      ),
    )
    .output(dashboardStatsSchema)
    .query(({ ctx }) => dashboardStats(ctx.readDb, ctx.tenantId)),
});
