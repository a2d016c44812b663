import { restTag } from '../../rest-meta.js';
import {
  assignmentIdSchema,
  assignmentSchema,
  createAssignmentSchema,
  okIdSchema,
  requestDetailsSchema,
  requestTokenSchema,
  respondSchema,
  updateAssignmentSchema,
} from '../../schemas/service-planner.js';
import {
  createAssignment,
  deleteAssignment,
  getRequest,
  respondToRequest,
  updateAssignment,
} from '../../services/service-planner/assignments.js';
import { protectedProcedure, publicProcedure, router } from '../../trpc.js';

const rest = restTag('Service planner');

export const assignmentsRouter = router({
  create: protectedProcedure
    .meta(
      rest.post(
        '/api/service-planner/plans/{planId}/assignments',
        'Schedule a member (409 when blocked out or already in the plan, unless force)',
        { status: 201 },
      ),
    )
    .input(createAssignmentSchema)
    .output(assignmentSchema)
    .mutation(({ ctx, input }) => createAssignment(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(rest.patch('/api/service-planner/assignments/{id}', 'Change an assignment (position, item, status, notes)'))
    .input(updateAssignmentSchema)
    .output(assignmentSchema)
    .mutation(({ ctx, input }) => updateAssignment(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(rest.delete('/api/service-planner/assignments/{id}', 'Remove an assignment'))
    .input(assignmentIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteAssignment(ctx.db, ctx.tenantId, input)),
});

/** Reached from a scheduling request's link, without signing in: the token is the key. */
export const requestsRouter = router({
  get: publicProcedure
    .meta(
      rest.get(
        '/api/service-planner/requests/{token}',
        'What a scheduling request asks (no sign-in; reading never answers)',
      ),
    )
    .input(requestTokenSchema)
    .output(requestDetailsSchema)
    .query(({ ctx, input }) => getRequest(ctx.db, input)),
  respond: publicProcedure
    .input(respondSchema)
    .output(requestDetailsSchema)
    .mutation(({ ctx, input }) => respondToRequest(ctx.db, input)),
  accept: publicProcedure
    .meta(rest.post('/api/service-planner/requests/{token}/accept', 'Accept a scheduling request'))
    .input(requestTokenSchema)
    .output(requestDetailsSchema)
    .mutation(({ ctx, input }) => respondToRequest(ctx.db, { token: input.token, response: 'accept' })),
  decline: publicProcedure
    .meta(rest.post('/api/service-planner/requests/{token}/decline', 'Decline a scheduling request'))
    .input(requestTokenSchema)
    .output(requestDetailsSchema)
    .mutation(({ ctx, input }) => respondToRequest(ctx.db, { token: input.token, response: 'decline' })),
});
