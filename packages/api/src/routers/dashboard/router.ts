import { dashboardStatsSchema } from '../../schemas/dashboard.js';
import { gettingStartedSchema } from '../../schemas/getting-started.js';
import { dashboardStats } from '../../services/dashboard/stats.js';
import { dismissGettingStarted, getGettingStarted } from '../../services/dashboard/getting-started.js';
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
  gettingStarted: protectedProcedure
    .meta(
      rest.get(
        '/api/dashboard/getting-started',
        "The getting-started checklist: each step and whether the church's data shows it done",
      ),
    )
    .output(gettingStartedSchema)
    .query(({ ctx }) => getGettingStarted(ctx.db, ctx.tenantId)),
  dismissGettingStarted: protectedProcedure
    .meta(rest.post('/api/dashboard/getting-started/dismiss', 'Hide the getting-started checklist for good'))
    .output(gettingStartedSchema)
    .mutation(({ ctx }) => dismissGettingStarted(ctx.db, ctx.tenantId)),
});
