import { restTag } from '../../rest-meta.js';
import {
  matrixInputSchema,
  matrixSchema,
  scheduleCommitInputSchema,
  scheduleCommitResultSchema,
  scheduleProposalInputSchema,
  scheduleProposalSchema,
} from '../../schemas/service-planner.js';
import { scheduleMatrix } from '../../services/service-planner/matrix.js';
import { commitSchedule, proposeScheduleFor } from '../../services/service-planner/schedule.js';
import { protectedProcedure, router } from '../../trpc.js';

const rest = restTag('Service planner');

export const scheduleRouter = router({
  proposal: protectedProcedure
    .meta(
      rest.post(
        '/api/service-planner/schedule/proposal',
        'Propose who serves where on the chosen plans and positions (nothing is saved); unfilled slots say why',
      ),
    )
    .input(scheduleProposalInputSchema)
    .output(scheduleProposalSchema)
    .mutation(({ ctx, input }) => proposeScheduleFor(ctx.db, ctx.tenantId, input)),
  commit: protectedProcedure
    .meta(
      rest.post(
        '/api/service-planner/schedule/commit',
        'Save the (edited) proposal as assignments and email the requests',
        { status: 201 },
      ),
    )
    .input(scheduleCommitInputSchema)
    .output(scheduleCommitResultSchema)
    .mutation(({ ctx, input }) =>
      commitSchedule(
        { db: ctx.db, email: ctx.services.email, jobs: ctx.services.jobs, config: ctx.services.delivery },
        ctx.tenantId,
        input,
      ),
    ),
});

export const matrixRouter = router({
  get: protectedProcedure
    .meta(
      rest.get(
        '/api/service-planner/matrix',
        'The scheduling matrix: people × dates of the plans from–to (at most 52 weeks), each cell with its positions, service time and status (pending, accepted, declined); teamId: one team',
      ),
    )
    .input(matrixInputSchema)
    .output(matrixSchema)
    .query(({ ctx, input }) => scheduleMatrix(ctx.db, ctx.tenantId, input)),
});
