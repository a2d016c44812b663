import type { CreateCalendarEventInput } from '../../schemas/calendar-events.js';

/** For tests: a published event two days ahead with one ticket type. */
export function createEventInput(
  o: { title?: string; priceCents?: number; capacity?: number } = {},
): CreateCalendarEventInput {
  return {
    title: o.title ?? 'Breakfast',
    descriptionHtml: '',
    audienceTags: [],
    visibility: 'public',
    status: 'published',
    requiresApproval: false,
    waitlist: true,
    refundPolicy: 'full',
    times: [{ startsAt: new Date(Date.now() + 48 * 3_600_000), capacity: o.capacity ?? 10 }],
    ticketTypes: [{ name: 'Adult', priceCents: o.priceCents ?? 0 }],
    discountCodes: [],
    questions: [],
  };
}
