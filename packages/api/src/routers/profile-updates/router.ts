import { z } from 'zod';
import {
  profileUpdateCountSchema,
  profileUpdateDecisionSchema,
  profileUpdateIdsSchema,
  profileUpdateSchema,
} from '../../schemas/portal.js';
import {
  approveProfileUpdates,
  countProfileUpdates,
  listProfileUpdates,
  rejectProfileUpdates,
} from '../../services/portal/proposals.js';
import { requestActor } from '../../services/events/actor.js';
import { protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Profile updates');

/** Staff: the details members proposed in the portal, approved or rejected here. */
export const profileUpdatesRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/profile-updates', 'Details members proposed, waiting for approval, oldest first'))
    .output(z.array(profileUpdateSchema))
    .query(({ ctx }) => listProfileUpdates(ctx.db, ctx.tenantId)),
  count: protectedProcedure
    .meta(rest.get('/api/profile-updates/count', 'How many proposed details wait for approval'))
    .output(profileUpdateCountSchema)
    .query(({ ctx }) => countProfileUpdates(ctx.db, ctx.tenantId)),
  approve: protectedProcedure
    .meta(rest.post('/api/profile-updates/approve', "Approve proposed details: the contacts' fields change"))
    .input(profileUpdateIdsSchema)
    .output(profileUpdateDecisionSchema)
    .mutation(({ ctx, input }) => approveProfileUpdates(ctx.db, ctx.tenantId, input.ids, requestActor(ctx))),
  reject: protectedProcedure
    .meta(rest.post('/api/profile-updates/reject', 'Reject proposed details: nothing changes'))
    .input(profileUpdateIdsSchema)
    .output(profileUpdateDecisionSchema)
    .mutation(({ ctx, input }) => rejectProfileUpdates(ctx.db, ctx.tenantId, input.ids, requestActor(ctx))),
});
