import { z } from 'zod';
import {
  JOURNEY_STARTERS,
  activationCheckSchema,
  createJourneySchema,
  enrollJourneySchema,
  enrollResultSchema,
  enrollmentPageSchema,
  enrollmentRunsInputSchema,
  enrollmentRunsOutputSchema,
  journeyIdSchema,
  journeyOutputSchema,
  journeyStarterOutputSchema,
  journeyStatsSchema,
  listEnrollmentsSchema,
  testJourneySchema,
  testResultSchema,
  updateJourneySchema,
} from '../../schemas/journeys.js';
import {
  activateJourney,
  createJourney,
  deleteJourney,
  getJourney,
  journeyActivationCheck,
  listJourneys,
  pauseJourney,
  archiveJourney,
  updateJourney,
} from '../../services/journeys/definitions.js';
import { enrollInJourney, testJourney } from '../../services/journeys/enroll.js';
import { journeyStats, listEnrollmentRuns, listJourneyEnrollments } from '../../services/journeys/stats.js';
import { protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Journeys');

export const journeysRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/journeys', "The church's journeys, with their counts and trigger in words"))
    .output(z.array(journeyOutputSchema))
    .query(({ ctx }) => listJourneys(ctx.db, ctx.tenantId)),
  create: protectedProcedure
    .meta(rest.post('/api/journeys', 'Create a journey (a draft)', { status: 201, errors: [404] }))
    .input(createJourneySchema)
    .output(journeyOutputSchema)
    .mutation(({ ctx, input }) => createJourney(ctx.db, ctx.tenantId, input)),
  get: protectedProcedure
    .meta(rest.get('/api/journeys/{id}', 'One journey', { errors: [404] }))
    .input(journeyIdSchema)
    .output(journeyOutputSchema)
    .query(({ ctx, input }) => getJourney(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(
      rest.put(
        '/api/journeys/{id}',
        'Replace a journey; once people have entered it, this makes a new version for new entries',
        { errors: [404] },
      ),
    )
    .input(updateJourneySchema)
    .output(journeyOutputSchema)
    .mutation(({ ctx, input }) => updateJourney(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(rest.delete('/api/journeys/{id}', 'Delete a journey and its enrolments (its tasks stay)', { errors: [404] }))
    .input(journeyIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => deleteJourney(ctx.db, ctx.tenantId, input)),
  activate: protectedProcedure
    .meta(
      rest.post('/api/journeys/{id}/activate', 'Start a journey; refused with every reason it cannot run', {
        errors: [404],
      }),
    )
    .input(journeyIdSchema)
    .output(journeyOutputSchema)
    .mutation(({ ctx, input }) => activateJourney(ctx.db, ctx.tenantId, input)),
  pause: protectedProcedure
    .meta(
      rest.post('/api/journeys/{id}/pause', 'Pause a journey: nobody enters and no step runs until it is activated', {
        errors: [404],
      }),
    )
    .input(journeyIdSchema)
    .output(journeyOutputSchema)
    .mutation(({ ctx, input }) => pauseJourney(ctx.db, ctx.tenantId, input)),
  archive: protectedProcedure
    .meta(
      rest.post(
        '/api/journeys/{id}/archive',
        'Archive a journey: it stops for good and keeps its figures; the people still in it leave it',
        { errors: [404] },
      ),
    )
    .input(journeyIdSchema)
    .output(journeyOutputSchema)
    .mutation(({ ctx, input }) => archiveJourney(ctx.db, ctx.tenantId, input)),
  enroll: protectedProcedure
    .meta(
      rest.post('/api/journeys/{id}/enroll', 'Enrol chosen contacts, or everyone on a list, now', { errors: [404] }),
    )
    .input(enrollJourneySchema)
    .output(enrollResultSchema)
    .mutation(({ ctx, input }) => enrollInJourney(ctx.db, ctx.tenantId, input)),
  stats: protectedProcedure
    .meta(
      rest.get('/api/journeys/{id}/stats', "A journey's counts, and each step's people and messages", {
        errors: [404],
      }),
    )
    .input(journeyIdSchema)
    .output(journeyStatsSchema)
    .query(({ ctx, input }) => journeyStats(ctx.db, ctx.tenantId, input)),
  enrollments: protectedProcedure
    .meta(rest.get('/api/journeys/{id}/enrollments', "A journey's enrolments, newest first", { errors: [404] }))
    .input(listEnrollmentsSchema)
    .output(enrollmentPageSchema)
    .query(({ ctx, input }) => listJourneyEnrollments(ctx.db, ctx.tenantId, input)),
  // The editor's own (tRPC only).
  activationCheck: protectedProcedure
    .input(journeyIdSchema)
    .output(activationCheckSchema)
    .query(({ ctx, input }) => journeyActivationCheck(ctx.db, ctx.tenantId, input)),
  test: protectedProcedure
    .input(testJourneySchema)
    .output(testResultSchema)
    .mutation(({ ctx, input }) => testJourney(ctx.db, ctx.tenantId, input)),
  enrollmentRuns: protectedProcedure
    .input(enrollmentRunsInputSchema)
    .output(enrollmentRunsOutputSchema)
    .query(({ ctx, input }) => listEnrollmentRuns(ctx.db, ctx.tenantId, input)),
  starters: protectedProcedure
    .output(z.array(journeyStarterOutputSchema))
    .query(() => JOURNEY_STARTERS.map((s) => ({ ...s, fields: s.fields }))),
});
