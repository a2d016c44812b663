import { z } from 'zod';
import {
  addBatchLineSchema,
  batchDetailSchema,
  batchIdSchema,
  batchSchema,
  createBatchSchema,
  updateBatchSchema,
  cardUpdateResultSchema,
  cardUpdateSchema,
  demoCompleteGiftSchema,
  findGiftsSchema,
  findSchedulesSchema,
  giftPageSchema,
  givingOverviewSchema,
  lapsedToJourneySchema,
  lapsedToListSchema,
  preparedGiftSchema,
  reverseBatchLineSchema,
  prepareGiftSchema,
  scheduleSchema,
  updateScheduleSchema,
} from '../../schemas/giving.js';
import {
  donorStatementSchema,
  pdfFileSchema,
  startStatementsSchema,
  statementRunIdSchema,
  statementPreviewSchema,
  statementRunSchema,
  statementRunSummarySchema,
} from '../../schemas/giving-statements.js';
import {
  downloadStatementRun,
  getStatementRun,
  listStatementRuns,
  previewStatementRun,
  startStatementRun,
} from '../../services/giving/statements.js';
import { staffDonorStatement } from '../../services/giving/donor-statement.js';
import { prepareGift } from '../../services/giving/prepare-gift.js';
import { completeDemoGift } from '../../services/giving/stripe-events.js';
import { findGifts } from '../../services/giving/gift-list.js';
import { givingOverview, lapsedDonorsToJourney, lapsedDonorsToList } from '../../services/giving/overview.js';
import {
  addBatchLine,
  commitBatch,
  createBatch,
  getBatch,
  listBatches,
  updateBatch,
  reverseBatchLine,
} from '../../services/giving/batches.js';
import { exportSchedules, listSchedules, startCardUpdate, updateSchedule } from '../../services/giving/schedules.js';
import { receiveStripeWebhook } from '../../services/show-up/stripe-webhook.js';
import { throttleDonations } from '../../services/show-up/donation-limits.js';
import type { Context } from '../../context.js';
import { protectedProcedure, publicProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Giving');

const throttle = (ctx: Context) =>
  throttleDonations(ctx.db, { ip: ctx.ip, perHour: ctx.services.limits.donationsPerAddressPerHour, kind: 'start' });

const givingDeps = (ctx: Context) => ({
  db: ctx.db,
  payments: ctx.services.showUp.payments,
  cardFee: ctx.services.showUp.cardFee,
  jobs: ctx.services.jobs,
  publicUrl: ctx.services.delivery.publicUrl,
});

export const givingRouter = router({
  prepare: publicProcedure
    .meta(
      rest.post(
        '/api/giving/prepare',
        "Start a gift on a church's giving page: handle, lines (fundId, amountCents), frequency, startDate, coverFees, donor (name, email, address), note; returns the PaymentIntent's or (recurring) SetupIntent's clientSecret",
        { errors: [404, 409, 429] },
      ),
    )
    .input(prepareGiftSchema)
    .output(preparedGiftSchema)
    .mutation(async ({ ctx, input }) => {
      await throttle(ctx);
      return prepareGift(givingDeps(ctx), input);
    }),
  completeDemo: publicProcedure
    .meta(
      rest.post(
        '/api/giving/demo-complete',
        'Demo mode only (no Stripe keys, not production): pay or save the card of a prepared gift (intentId, clientSecret)',
        { errors: [404, 429] },
      ),
    )
    .input(demoCompleteGiftSchema)
    .output(z.object({ status: z.literal('succeeded') }))
    .mutation(async ({ ctx, input }) => {
      await throttle(ctx);
      const deps = givingDeps(ctx);
      return completeDemoGift(
        {
          db: ctx.db,
          payments: deps.payments,
          deliver: (body, signature) => receiveStripeWebhook(deps, body, signature),
        },
        input,
      );
    }),
  updateCard: publicProcedure
    .meta(
      rest.post(
        '/api/giving/update-card',
        "The donor's link (token from the email): start saving a new card for their recurring gift; returns a SetupIntent's clientSecret",
        { errors: [404, 429] },
      ),
    )
    .input(cardUpdateSchema)
    .output(cardUpdateResultSchema)
    .mutation(async ({ ctx, input }) => {
      await throttle(ctx);
      return startCardUpdate({ db: ctx.db, payments: ctx.services.showUp.payments }, input);
    }),
  gifts: protectedProcedure
    .meta(
      rest.get(
        '/api/giving/gifts',
        "The church's gifts, newest first: status, fundId, contactId, scheduleId, from, to (dates), page, pageSize",
      ),
    )
    .input(findGiftsSchema)
    .output(giftPageSchema)
    .query(({ ctx, input }) => findGifts(ctx.db, ctx.tenantId, input)),
  overview: protectedProcedure
    .meta(
      rest.get(
        '/api/giving/overview',
        'The last 12 months: totals by month and fund, recurring income per month, new and lapsed donors, gifts by source',
      ),
    )
    .output(givingOverviewSchema)
    .query(({ ctx }) => givingOverview(ctx.db, ctx.tenantId)),
  lapsedToList: protectedProcedure
    .meta(rest.post('/api/giving/lapsed/list', 'Add every lapsed donor who is a contact to a list', { errors: [404] }))
    .input(lapsedToListSchema)
    .output(z.object({ donors: z.number().int(), added: z.number().int() }))
    .mutation(({ ctx, input }) => lapsedDonorsToList(ctx.db, ctx.tenantId, input)),
  lapsedToJourney: protectedProcedure
    .meta(
      rest.post('/api/giving/lapsed/journey', 'Enrol every lapsed donor who is a contact in an active journey', {
        errors: [404],
      }),
    )
    .input(lapsedToJourneySchema)
    .output(z.object({ enrolled: z.number().int(), skipped: z.number().int() }))
    .mutation(({ ctx, input }) => lapsedDonorsToJourney(ctx.db, ctx.tenantId, input)),
  recurring: protectedProcedure
    .meta(rest.get('/api/giving/recurring', "The church's recurring gifts: status, fundId"))
    .input(findSchedulesSchema)
    .output(z.array(scheduleSchema))
    .query(({ ctx, input }) => listSchedules(ctx.db, ctx.tenantId, input)),
  exportRecurring: protectedProcedure
    .meta(rest.get('/api/giving/recurring/export', 'The recurring gifts as CSV (status, fundId)', { format: 'csv' }))
    .input(findSchedulesSchema)
    .output(z.object({ fileName: z.string(), csv: z.string() }))
    .query(({ ctx, input }) => exportSchedules(ctx.db, ctx.tenantId, input)),
  updateRecurring: protectedProcedure
    .meta(
      rest.patch(
        '/api/giving/recurring/{id}',
        'Change a recurring gift (unsent fields keep their values): status active|paused|cancelled, pausedUntil, frequency, lines, nextDate',
      ),
    )
    .input(updateScheduleSchema)
    .output(scheduleSchema)
    .mutation(({ ctx, input }) =>
      updateSchedule({ db: ctx.db, cardFee: ctx.services.showUp.cardFee }, ctx.tenantId, input),
    ),
  batches: protectedProcedure
    .meta(rest.get('/api/giving/batches', 'Batches of cash and checks, newest first, with their totals'))
    .output(z.array(batchSchema))
    .query(({ ctx }) => listBatches(ctx.db, ctx.tenantId)),
  createBatch: protectedProcedure
    .meta(
      rest.post(
        '/api/giving/batches',
        'Start a batch: batchDate, description, expectedTotalCents (the counted total)',
        {
          status: 201,
        },
      ),
    )
    .input(createBatchSchema)
    .output(batchDetailSchema)
    .mutation(({ ctx, input }) => createBatch(ctx.db, ctx.tenantId, input)),
  batch: protectedProcedure
    .meta(rest.get('/api/giving/batches/{id}', 'One batch with its lines'))
    .input(batchIdSchema)
    .output(batchDetailSchema)
    .query(({ ctx, input }) => getBatch(ctx.db, ctx.tenantId, input)),
  updateBatch: protectedProcedure
    .meta(
      rest.patch(
        '/api/giving/batches/{id}',
        'Change an open batch (unsent fields keep their values); a committed one: 409',
        {
          errors: [409],
        },
      ),
    )
    .input(updateBatchSchema)
    .output(batchDetailSchema)
    .mutation(({ ctx, input }) => updateBatch(ctx.db, ctx.tenantId, input)),
  addBatchLine: protectedProcedure
    .meta(
      rest.post(
        '/api/giving/batches/{id}/lines',
        'Add a line: contactId (or none: Anonymous cash), fundId, amountCents, method cash|check|other, checkNumber; on a committed batch a correction with its reason',
        { status: 201, errors: [409] },
      ),
    )
    .input(addBatchLineSchema)
    .output(batchDetailSchema)
    .mutation(({ ctx, input }) => addBatchLine(ctx.db, ctx.tenantId, input)),
  reverseBatchLine: protectedProcedure
    .meta(
      rest.post(
        '/api/giving/batches/{id}/lines/{lineId}/reverse',
        "Reverse a committed batch's line with its reason (a bounced check, a line entered twice): its gift is refunded, off every total",
        { errors: [404, 409] },
      ),
    )
    .input(reverseBatchLineSchema)
    .output(batchDetailSchema)
    .mutation(({ ctx, input }) => reverseBatchLine(ctx.db, ctx.tenantId, input)),
  commitBatch: protectedProcedure
    .meta(
      rest.post(
        '/api/giving/batches/{id}/commit',
        'Commit: the lines must add up to the counted total; the gifts count and the batch is locked',
        { errors: [409] },
      ),
    )
    .input(batchIdSchema)
    .output(batchDetailSchema)
    .mutation(({ ctx, input }) => commitBatch(ctx.db, ctx.tenantId, { id: input.id, userId: ctx.user.id })),
  statementRuns: protectedProcedure
    .meta(rest.get('/api/giving/statements', 'Giving statement runs, newest first, with their progress'))
    .output(z.array(statementRunSummarySchema))
    .query(({ ctx }) => listStatementRuns(ctx.db, ctx.tenantId)),
  previewStatements: protectedProcedure
    .meta(
      rest.get(
        '/api/giving/statements/preview',
        'Before making statements for from–to: how many donors would be emailed, how many printed instead, how many suppressed addresses skipped',
      ),
    )
    .input(startStatementsSchema)
    .output(statementPreviewSchema)
    .query(({ ctx, input }) => previewStatementRun(ctx.db, ctx.tenantId, input)),
  startStatements: protectedProcedure
    .meta(
      rest.post(
        '/api/giving/statements',
        "Make giving statements for from–to (dates, both included): one PDF per donor, built by a job, emailed to donors with an email; the others' in one PDF to print",
        { status: 202 },
      ),
    )
    .input(startStatementsSchema)
    .output(statementRunSchema)
    .mutation(({ ctx, input }) =>
      startStatementRun({ db: ctx.db, jobs: ctx.services.jobs }, ctx.tenantId, ctx.user.id, input),
    ),
  statementRun: protectedProcedure
    .meta(
      rest.get(
        '/api/giving/statements/{runId}',
        'A statement run: status, done of total, emailed, and the report of donors without an email or a postal address',
      ),
    )
    .input(statementRunIdSchema)
    .output(statementRunSchema)
    .query(({ ctx, input }) => getStatementRun(ctx.db, ctx.tenantId, input.runId)),
  downloadStatements: protectedProcedure
    .meta(
      rest.get(
        '/api/giving/statements/{runId}/download',
        'The statements to print (donors without an email), one PDF',
        {
          format: 'file',
          fileTypes: ['application/pdf'],
          errors: [409],
        },
      ),
    )
    .input(statementRunIdSchema)
    .output(pdfFileSchema)
    .query(({ ctx, input }) => downloadStatementRun(ctx.db, ctx.tenantId, input.runId)),
  donorStatement: protectedProcedure
    .meta(
      rest.get(
        '/api/giving/donors/{contactId}/statement',
        "One donor's giving statement for from–to (dates, both included), as a PDF made on the spot: nothing is stored or sent",
        { format: 'file', fileTypes: ['application/pdf'] },
      ),
    )
    .input(donorStatementSchema)
    .output(pdfFileSchema)
    .query(({ ctx, input }) => staffDonorStatement(ctx.db, ctx.tenantId, input)),
});
