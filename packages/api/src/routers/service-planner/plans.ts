import { z } from 'zod';
import { restTag } from '../../rest-meta.js';
import {
  announceResultSchema,
  announceSchema,
  createPlanSchema,
  duplicatePlanSchema,
  listPlansSchema,
  okIdSchema,
  planDetailSchema,
  planIdSchema,
  planSummarySchema,
  sendRequestsResultSchema,
  songFileSchema,
  updatePlanSchema,
} from '../../schemas/service-planner.js';
import { announcePlan } from '../../services/service-planner/announce.js';
import { sendRequests } from '../../services/service-planner/assignments.js';
import {
  createPlan,
  deletePlan,
  duplicatePlan,
  getPlan,
  listPlans,
  updatePlan,
} from '../../services/service-planner/plans.js';
import { planChordProFile, planOpenLyricsZip } from '../../services/service-planner/song-files.js';
import { protectedProcedure, router } from '../../trpc.js';

const rest = restTag('Service planner');

export const plansRouter = router({
  list: protectedProcedure
    .meta(
      rest.get(
        '/api/service-planner/plans',
        'Service plans (when=upcoming|past|all): upcoming soonest first, then past',
      ),
    )
    .input(listPlansSchema)
    .output(z.array(planSummarySchema))
    .query(({ ctx, input }) => listPlans(ctx.db, ctx.tenantId, input)),
  get: protectedProcedure
    .meta(
      rest.get(
        '/api/service-planner/plans/{id}',
        'A plan with its items (computed start times), songs, team and announcement drafts',
      ),
    )
    .input(planIdSchema)
    .output(planDetailSchema)
    .query(({ ctx, input }) => getPlan(ctx.db, ctx.tenantId, input)),
  create: protectedProcedure
    .meta(rest.post('/api/service-planner/plans', 'Create a service plan', { status: 201 }))
    .input(createPlanSchema)
    .output(planDetailSchema)
    .mutation(({ ctx, input }) => createPlan(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(rest.patch('/api/service-planner/plans/{id}', 'Change a plan (partial)'))
    .input(updatePlanSchema)
    .output(planDetailSchema)
    .mutation(({ ctx, input }) => updatePlan(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(rest.delete('/api/service-planner/plans/{id}', 'Delete a plan with its items and team'))
    .input(planIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deletePlan(ctx.db, ctx.tenantId, input)),
  duplicate: protectedProcedure
    .meta(
      rest.post(
        '/api/service-planner/plans/{id}/duplicate',
        'Copy a plan (fields, items, songs and keys) to another date as a draft',
        { status: 201 },
      ),
    )
    .input(duplicatePlanSchema)
    .output(planDetailSchema)
    .mutation(({ ctx, input }) => duplicatePlan(ctx.db, ctx.tenantId, input)),
  chordPro: protectedProcedure
    .meta(
      rest.get('/api/service-planner/plans/{id}/chordpro', "A plan's songs in order of service as one ChordPro file", {
        format: 'file',
        fileTypes: ['text/plain'],
      }),
    )
    .input(planIdSchema)
    .output(songFileSchema)
    .query(({ ctx, input }) => planChordProFile(ctx.db, ctx.tenantId, input)),
  openLyrics: protectedProcedure
    .meta(
      rest.get(
        '/api/service-planner/plans/{id}/openlyrics',
        "A plan's songs as OpenLyrics files (OpenLP, FreeShow), one per song, in a zip",
        { format: 'file', fileTypes: ['application/zip'] },
      ),
    )
    .input(planIdSchema)
    .output(songFileSchema)
    .query(({ ctx, input }) => planOpenLyricsZip(ctx.db, ctx.tenantId, input)),
  sendRequests: protectedProcedure
    .meta(
      rest.post(
        '/api/service-planner/plans/{id}/send-requests',
        'Email everyone scheduled and not yet asked, with Accept and Decline links',
      ),
    )
    .input(planIdSchema)
    .output(sendRequestsResultSchema)
    .mutation(({ ctx, input }) =>
      sendRequests(
        { db: ctx.db, email: ctx.services.email, jobs: ctx.services.jobs, config: ctx.services.delivery },
        ctx.tenantId,
        {
          planId: input.id,
        },
      ),
    ),
  announce: protectedProcedure
    .meta(
      rest.post(
        '/api/service-planner/plans/{planId}/announce',
        'Create announcement drafts from the plan (email and SMS campaigns; nothing is sent)',
        { status: 201 },
      ),
    )
    .input(announceSchema)
    .output(announceResultSchema)
    .mutation(({ ctx, input }) =>
      announcePlan(
        {
          db: ctx.db,
          jobs: ctx.services.jobs,
          publicUrl: ctx.services.delivery.publicUrl,
          ai: ctx.services.ai,
          aiGenerationsPerHour: ctx.services.aiGenerationsPerHour,
          aiPerAddress: { ip: ctx.ip, perHour: ctx.services.limits.aiGenerationsPerAddressPerHour },
          landingPageChanged: ctx.services.landingPageChanged,
        },
        ctx.tenantId,
        input,
      ),
    ),
});
