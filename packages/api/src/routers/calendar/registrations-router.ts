import {
  cancelRegistrationSchema,
  checkInResultSchema,
  checkInSchema,
  registrationIdSchema,
  registrationSchema,
  updateRegistrationSchema,
} from '../../schemas/calendar-registrations.js';
import { cancelRegistration, updateRegistration } from '../../services/calendar/changes.js';
import { checkIn } from '../../services/calendar/door.js';
import { getRegistration } from '../../services/calendar/registrations.js';
import { protectedProcedure, router } from '../../trpc.js';
import { calendarDeps, rest } from './router.js';

/** One registration: read, change, check in, cancel (docs/calendar-events.md). */
export const registrationsRouter = router({
  get: protectedProcedure
    .meta(rest.get('/api/registrations/{id}', 'One registration with its attendees, answers and payment'))
    .input(registrationIdSchema)
    .output(registrationSchema)
    .query(({ ctx, input }) => getRegistration(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(
      rest.patch(
        '/api/registrations/{id}',
        "Change a registration (unsent fields keep their values): name, email, phone, attendees' names, answers; status confirmed or declined approves or declines one waiting for approval",
        { errors: [409] },
      ),
    )
    .input(updateRegistrationSchema)
    .output(registrationSchema)
    .mutation(({ ctx, input }) => updateRegistration(calendarDeps(ctx), ctx.tenantId, input)),
  checkIn: protectedProcedure
    .meta(
      rest.post(
        '/api/registrations/{id}/check-in',
        "Mark attendees arrived (attendeeIds, else all); a second time answers 409 'Already checked in at HH:MM'",
        { errors: [409] },
      ),
    )
    .input(checkInSchema)
    .output(checkInResultSchema)
    .mutation(({ ctx, input }) => checkIn(ctx.db, ctx.tenantId, input, { staffId: ctx.user.id })),
  cancel: protectedProcedure
    .meta(
      rest.post(
        '/api/registrations/{id}/cancel',
        "Cancel a registration: its seats go to the waitlist; refundCents (else all paid, when the event's policy is full) is refunded through the payment processor",
        { errors: [409] },
      ),
    )
    .input(cancelRegistrationSchema)
    .output(registrationSchema)
    .mutation(({ ctx, input }) => cancelRegistration(calendarDeps(ctx), ctx.tenantId, input)),
});
