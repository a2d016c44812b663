import { z } from 'zod';
import {
  calendarEventIdSchema,
  calendarEventSchema,
  calendarEventSummarySchema,
  createCalendarEventSchema,
  listCalendarEventsSchema,
  updateCalendarEventSchema,
} from '../../schemas/calendar-events.js';
import {
  listRegistrationsSchema,
  messageRegistrantsSchema,
  messageResultSchema,
  registrationPageSchema,
  staffRegisterSchema,
  ticketLookupSchema,
  ticketSchema,
} from '../../schemas/calendar-registrations.js';
import {
  createCalendarEvent,
  deleteCalendarEvent,
  getCalendarEvent,
  listCalendarEvents,
  updateCalendarEvent,
} from '../../services/calendar/events.js';
import { addRegistration } from '../../services/calendar/register.js';
import { afterEventCancelled } from '../../services/calendar/event-cancel.js';
import { listRegistrations } from '../../services/calendar/registrations.js';
import { eventIcs, registrantsCsv } from '../../services/calendar/files.js';
import { lookupTicket } from '../../services/calendar/door.js';
import { messageRegistrants } from '../../services/calendar/staff-messages.js';
import type { CalendarDeps } from '../../services/calendar/deps.js';
import type { Context } from '../../context.js';
import { protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

export const rest = restTag('Calendar');

/** The calendar services' dependencies from a request's context. */
export const calendarDeps = (ctx: Pick<Context, 'db' | 'services'>): CalendarDeps => ({
  db: ctx.db,
  payments: ctx.services.showUp.payments,
  jobs: ctx.services.jobs,
  publicUrl: ctx.services.delivery.publicUrl,
});

const fileSchema = z.object({ fileName: z.string(), contentType: z.string(), text: z.string() });

/** A church's calendar events (Marketing → Events): docs/calendar-events.md. */
export const calendarRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/calendar/events', "The church's events: status (draft, published, cancelled, all), search"))
    .input(listCalendarEventsSchema)
    .output(z.array(calendarEventSummarySchema))
    .query(({ ctx, input }) => listCalendarEvents(ctx.db, ctx.tenantId, input)),
  create: protectedProcedure
    .meta(
      rest.post('/api/calendar/events', 'Create an event with its times, ticket types, discount codes and questions', {
        status: 201,
        errors: [409],
      }),
    )
    .input(createCalendarEventSchema)
    .output(calendarEventSchema)
    .mutation(({ ctx, input }) => createCalendarEvent(ctx.db, ctx.tenantId, input)),
  get: protectedProcedure
    .meta(rest.get('/api/calendar/events/{id}', 'One event, with its parts and registrations by status'))
    .input(calendarEventIdSchema)
    .output(calendarEventSchema)
    .query(({ ctx, input }) => getCalendarEvent(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(
      rest.patch(
        '/api/calendar/events/{id}',
        'Change an event (unsent fields keep their values; status cancelled cancels its open registrations and refunds what they paid; a list sent — times, ticketTypes, discountCodes, questions — is the whole set: items with an id are changed, without one added, left out removed)',
        { errors: [409] },
      ),
    )
    .input(updateCalendarEventSchema)
    .output(calendarEventSchema)
    .mutation(async ({ ctx, input }) => {
      const event = await updateCalendarEvent(ctx.db, ctx.tenantId, input);
      if (input.status === 'cancelled') await afterEventCancelled(calendarDeps(ctx), ctx.tenantId);
      return event;
    }),
  delete: protectedProcedure
    .meta(
      rest.delete('/api/calendar/events/{id}', 'Delete an event nobody registered for (else cancel it)', {
        errors: [409],
      }),
    )
    .input(calendarEventIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => deleteCalendarEvent(ctx.db, ctx.tenantId, input)),
  registrations: protectedProcedure
    .meta(
      rest.get(
        '/api/calendar/events/{id}/registrations',
        'The registrant list: search, status (active by default), timeId, ticketTypeId, questionId with answer, checkedIn (yes, no, all), page, pageSize',
      ),
    )
    .input(listRegistrationsSchema)
    .output(registrationPageSchema)
    .query(({ ctx, input }) => listRegistrations(ctx.db, ctx.tenantId, input)),
  addRegistration: protectedProcedure
    .meta(
      rest.post(
        '/api/calendar/events/{id}/registrations',
        'Add a registration (a walk-in, a phone call): confirmed at once when seats are free, nothing to pay',
        { status: 201, errors: [409] },
      ),
    )
    .input(staffRegisterSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => addRegistration(calendarDeps(ctx), ctx.tenantId, input)),
  messageRegistrants: protectedProcedure
    .meta(
      rest.post(
        '/api/calendar/events/{id}/messages',
        'Message the registrants by email and/or text (channels, subject, body; status: active by default, or one; timeId): about the event they registered for, so sent even to people who unsubscribed from newsletters, never to a suppressed address or a number that texted STOP',
        { status: 201, errors: [429] },
      ),
    )
    .input(messageRegistrantsSchema)
    .output(messageResultSchema)
    .mutation(({ ctx, input }) => messageRegistrants(calendarDeps(ctx), ctx.tenantId, input, { staffId: ctx.user.id })),
  exportRegistrations: protectedProcedure
    .meta(
      rest.get(
        '/api/calendar/events/{id}/registrations/export',
        'The registrant list as CSV, one row per attendee, with the answers',
        {
          format: 'csv',
        },
      ),
    )
    .input(calendarEventIdSchema)
    .output(z.object({ fileName: z.string(), csv: z.string() }))
    .query(({ ctx, input }) => registrantsCsv(ctx.db, ctx.tenantId, input)),
  calendarFile: protectedProcedure
    .meta(
      rest.get('/api/calendar/events/{id}/calendar.ics', "The event's iCalendar file (every time)", {
        format: 'file',
        fileTypes: ['text/calendar'],
      }),
    )
    .input(calendarEventIdSchema)
    .output(fileSchema)
    .query(({ ctx, input }) => eventIcs(ctx.db, ctx.tenantId, input, ctx.services.delivery.publicUrl)),
  ticket: protectedProcedure
    .meta(
      rest.get(
        '/api/calendar/events/{id}/tickets',
        "The door: the attendee of a scanned ticket (ticket: the QR code's text); a ticket of another event answers 'This ticket is for …'",
        { errors: [409] },
      ),
    )
    .input(ticketLookupSchema)
    .output(ticketSchema)
    .query(({ ctx, input }) => lookupTicket(ctx.db, ctx.tenantId, input)),
});
