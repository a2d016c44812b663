import { z } from 'zod';
import { claimOfferSchema, registerResultSchema, registerSchema } from '../../schemas/calendar-registrations.js';
import { demoCompleteSchema } from '../../schemas/show-up.js';
import { claimOffer } from '../../services/calendar/waitlist.js';
import { registerForEvent } from '../../services/calendar/register.js';
import { completeDemoPayment } from '../../services/show-up/stripe-webhook.js';
import { throttleDonations } from '../../services/show-up/donation-limits.js';
import { throttleRegistrations } from '../../services/calendar/throttle.js';
import { publicProcedure, router } from '../../trpc.js';
import { calendarDeps, rest } from './router.js';

/** Registering without signing in (docs/calendar-events.md). */
export const publicCalendarRouter = router({
  register: publicProcedure
    .meta(
      rest.post(
        '/api/public/calendar/events/{id}/register',
        'Register for a published event: registrant, attendees (ticketTypeId, answers), answers, discountCode, timeId, idempotencyKey; answers confirmed, waitlisted, pending_approval, or payment (seats held 10 minutes)',
        { errors: [404, 409, 429] },
      ),
    )
    .input(registerSchema)
    .output(registerResultSchema)
    .mutation(async ({ ctx, input }) => {
      await throttleRegistrations(ctx.db, ctx.ip, ctx.services.limits.donationsPerAddressPerHour);
      return registerForEvent(calendarDeps(ctx), input);
    }),
  claimOffer: publicProcedure
    .meta(
      rest.post(
        '/api/public/calendar/offers/{token}/claim',
        'Claim a seat offered from the waitlist (the emailed link, valid 24 hours): confirmed, or payment with the seats held',
        { errors: [404, 409] },
      ),
    )
    .input(claimOfferSchema)
    .output(registerResultSchema)
    .mutation(({ ctx, input }) => claimOffer(calendarDeps(ctx), input)),
  completeDemoPayment: publicProcedure
    .meta(
      rest.post(
        '/api/public/calendar/payments/demo-complete',
        'Demo mode only (no Stripe keys, not production): pay a registration (paymentIntent, clientSecret)',
        { errors: [404, 429] },
      ),
    )
    .input(demoCompleteSchema)
    .output(z.object({ status: z.literal('succeeded') }))
    .mutation(async ({ ctx, input }) => {
      await throttleDonations(ctx.db, {
        ip: ctx.ip,
        perHour: ctx.services.limits.donationsPerAddressPerHour,
        kind: 'start',
      });
      return completeDemoPayment({ ...calendarDeps(ctx), publicUrl: ctx.services.delivery.publicUrl }, input);
    }),
});
