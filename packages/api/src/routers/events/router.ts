import {
  contactActivityInput,
  contactActivityOutput,
  listEventsInput,
  listEventsOutput,
} from '../../schemas/events.js';
import { contactActivity, listEvents } from '../../services/events/list.js';
import { protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Events');

export const eventsRouter = router({
  list: protectedProcedure
    .meta(
      rest.get(
        '/api/events',
        "The church's log of what happened, oldest first by transaction, after the cursor `after` (the previous page's `next`, an event id): at most 500 a page",
      ),
    )
    .input(listEventsInput)
    .output(listEventsOutput)
    .query(({ ctx, input }) => listEvents(ctx.readDb, ctx.tenantId, input)),
  forContact: protectedProcedure
    .meta(
      rest.get('/api/contacts/{contactId}/events', "A person's timeline: their events, newest first", {
        errors: [404],
      }),
    )
    .input(contactActivityInput)
    .output(contactActivityOutput)
    .query(({ ctx, input }) => contactActivity(ctx.db, ctx.tenantId, input)),
});
