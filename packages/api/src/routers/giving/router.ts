import { z } from 'zod';
import {
  cardUpdateResultSchema,
  cardUpdateSchema,
  demoCompleteGiftSchema,
  findGiftsSchema,
  findSchedulesSchema,
  giftPageSchema,
  preparedGiftSchema,
  prepareGiftSchema,
  scheduleSchema,
  updateScheduleSchema,
} from '../../schemas/giving.js';
import { prepareGift } from '../../services/giving/gifts.js';
import { completeDemoGift } from '../../services/giving/stripe-events.js';
import { findGifts } from '../../services/giving/gift-list.js';
import { exportSchedules, listSchedules, startCardUpdate, updateSchedule } from '../../services/giving/schedules.js';
import { receiveStripeWebhook } from '../../services/show-up/donations.js';
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
});
