import { expect } from 'vitest';
import type { Db } from '@lampstand/db';
import { runCalendarDue, type CalendarDueResult } from '@lampstand/api/server';
import type { HttpClient, TestApp } from './test-app.js';

// Calendar events in HTTP tests: an event made through the API, a registration through the public
// route, the background work on a controlled clock, the registration messages waited for.

const HOUR = 3_600_000;
export const MINUTE = 60_000;
/** A time in the future (whole hours from now), as ISO text. */
export const inHours = (h: number) => new Date(Date.now() + h * HOUR).toISOString();

export interface EventOut {
  id: number;
  slug: string;
  times: { id: number; capacity: number | null; seatsTaken: number }[];
  ticketTypes: { id: number; name: string; priceCents: number }[];
  questions: { id: number; label: string; scope: string }[];
  discountCodes: { id: number; code: string; uses: number }[];
  counts: Record<string, number>;
}

/** A published event with one time of `capacity` seats and the ticket types given. */
export async function createEvent(client: HttpClient, fields: Record<string, unknown> = {}): Promise<EventOut> {
  const res = await client.post('/api/calendar/events', {
    title: 'Women’s breakfast',
    status: 'published',
    times: [{ startsAt: inHours(48), endsAt: inHours(50), capacity: 10 }],
    ticketTypes: [{ name: 'Adult', priceCents: 0 }],
    ...fields,
  });
  expect(res.status, res.text).toBe(201);
  return res.body as EventOut;
}

let keys = 0;
/** Registers `names` (one attendee each of the first ticket type) through the public route. */
export async function register(
  visitor: HttpClient,
  event: EventOut,
  fields: Record<string, unknown> = {},
  names = ['Ann Lee'],
) {
  const ticketTypeId = event.ticketTypes[0]!.id;
  return visitor.post(`/api/public/calendar/events/${event.id}/register`, {
    registrant: { name: names[0], email: `${names[0]!.toLowerCase().replace(/\W+/g, '.')}@example.org` },
    attendees: names.map((name) => ({ name, ticketTypeId })),
    idempotencyKey: `calendar-test-${++keys}-${Date.now()}`,
    ...fields,
  });
}

/** Pays a registration in demo mode (the locally signed payment_intent.succeeded). */
export async function demoPay(visitor: HttpClient, payment: { intentId: string; clientSecret: string }) {
  const res = await visitor.post('/api/public/calendar/payments/demo-complete', {
    paymentIntent: payment.intentId,
    clientSecret: payment.clientSecret,
  });
  expect(res.status, res.text).toBe(200);
}

/** One round of the calendar's background work at `now`. */
export function calendarDue(app: TestApp, now: Date): Promise<CalendarDueResult> {
  return runCalendarDue(
    { db: app.db, payments: app.deps.showUp.payments, jobs: app.deps.jobs, publicUrl: app.deps.delivery.publicUrl },
    { now },
  );
}

/** The registration's messages, once the app's worker sent them: their subjects and texts. */
export async function registrationMail(db: Db, registrationId: number, count: number) {
  await expect
    .poll(
      async () =>
        (
          await db
            .selectFrom('deliveries')
            .select('id')
            .where('registrationId', '=', registrationId)
            .where('status', '=', 'sent')
            .execute()
        ).length,
      { timeout: 30_000, interval: 100 },
    )
    .toBeGreaterThanOrEqual(count);
  return db
    .selectFrom('outboxMessages as o')
    .innerJoin('deliveries as d', 'd.id', 'o.deliveryId')
    .select(['o.subject', 'o.text', 'o.attachments', 'd.registrationNotice'])
    .where('d.registrationId', '=', registrationId)
    .orderBy('o.id')
    .execute();
}
