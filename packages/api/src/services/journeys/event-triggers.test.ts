import { describe, expect, it } from 'vitest';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import type { JobQueue } from '../../jobs.js';
import { createDemoPayments } from '../../providers/payments.js';
import { journeyFieldsSchema, type JourneyFieldsInput } from '../../schemas/journeys.js';
import { createCalendarEvent } from '../calendar/events.js';
import { registerForEvent } from '../calendar/register.js';
import { cancelRegistration, updateRegistration } from '../calendar/changes.js';
import { claimOffer } from '../calendar/waitlist.js';
import { checkIn } from '../calendar/door.js';
import { completeDemoPayment } from '../show-up/stripe-webhook.js';
import { createEventInput } from '../calendar/test-input.js';
import { activateJourney, createJourney } from './definitions.js';
import { runDueEnrollments } from './runner.js';
import { processJourneyTriggers } from './triggers.js';
import { runMissedEventTriggers } from './event-triggers.js';
import { eventsSettled } from '../events/log.js';

// Journeys started by calendar events, on a clock the test holds: registered (with reminders a
// day and an hour before the event, waits of the 'before the event' kind), attended (checked in at
// the door), and did not attend (the time ended without a check-in), each registration once. A
// registration enters 'registered' only once it is confirmed: paid, claimed from the waitlist, or
// approved; never while held, waitlisted or waiting for approval.

const { db } = await freshDatabase();
const church = await registerUser(db, {
  username: 'grace',
  password: 'secret12',
  churchName: 'Grace',
  email: 'g@example.org',
});
const jobs: JobQueue = { send: async () => 'id', cancel: async () => {} };
const payments = createDemoPayments({ webhookSecret: 'whsec_journey_test', connect: false, platformFeePercent: 0 });

const T0 = new Date('2030-01-01T12:00:00Z');
const START = new Date('2030-01-10T18:00:00Z');
const END = new Date('2030-01-10T20:00:00Z');
const HOUR = 3_600_000;
const at = (ms: number) => new Date(START.getTime() + ms);
const calendar = { db, payments, jobs, publicUrl: 'http://localhost', now: () => T0 };

const event = await createCalendarEvent(db, church.id, {
  ...createEventInput({ title: 'Carols' }),
  times: [{ startsAt: START, endsAt: END, capacity: 10 }],
});

async function active(f: JourneyFieldsInput) {
  const j = await createJourney(db, church.id, journeyFieldsSchema.parse(f));
  return activateJourney(db, church.id, { id: j.id });
}
async function tick(now: Date) {
  // Events written just before are read once they settle (events/log.ts).
  await eventsSettled(db);
  await processJourneyTriggers(db, now);
  await runDueEnrollments(db, { now });
}
const register = (name: string, e: { id: number; ticketTypes: { id: number }[] } = event) =>
  registerForEvent(calendar, {
    id: e.id,
    registrant: { name, email: `${name.toLowerCase()}@example.org` },
    attendees: [{ name, ticketTypeId: e.ticketTypes[0]!.id, answers: [] }],
    answers: [],
  });
/** The reminder journeys' tags on a contact (not the source's own tag, nor 'Registered anywhere''s). */
const tagsOf = async (email: string) =>
  (await db.selectFrom('contacts').select('tags').where('email', '=', email).executeTakeFirstOrThrow()).tags.filter(
    (t) => t !== 'event' && t !== 'registered',
  );
const enrollments = (journeyId: number) =>
  db.selectFrom('journeyEnrollments').selectAll().where('journeyId', '=', journeyId).orderBy('id').execute();

const reminders = await active({
  name: 'Reminders',
  trigger: { kind: 'event_registered', eventId: event.id },
  steps: [
    { id: 'day', kind: 'wait', wait: { mode: 'before_event', amount: 1, unit: 'days' }, next: 'tag-day' },
    { id: 'tag-day', kind: 'add_tag', tag: 'reminded-day', next: 'hour' },
    { id: 'hour', kind: 'wait', wait: { mode: 'before_event', amount: 1, unit: 'hours' }, next: 'tag-hour' },
    { id: 'tag-hour', kind: 'add_tag', tag: 'reminded-hour', next: null },
  ],
});
const attended = await active({
  name: 'Thanks for coming',
  trigger: { kind: 'event_attended', eventId: null },
  steps: [{ id: 't', kind: 'add_tag', tag: 'attended', next: null }],
});
const registered = await active({
  name: 'Registered anywhere',
  trigger: { kind: 'event_registered', eventId: null },
  steps: [{ id: 't', kind: 'add_tag', tag: 'registered', next: null }],
});
/** Whether registration `id` has entered the 'Registered anywhere' journey. */
const entered = async (id: number) =>
  (await enrollments(registered.id)).some((e) => e.triggerKey === `registration:${id}`);
const missed = await active({
  name: 'We missed you',
  trigger: { kind: 'event_missed', eventId: event.id },
  steps: [{ id: 't', kind: 'add_tag', tag: 'missed', next: null }],
});

describe('journeys from calendar events', () => {
  it('enters a registration and reminds a day and an hour before the event', async () => {
    const ann = await register('Ann');
    expect(ann.outcome).toBe('confirmed');
    await tick(T0);
    const [e] = await enrollments(reminders.id);
    expect(e).toMatchObject({ triggerKey: `registration:${ann.registrationId}`, status: 'active' });
    expect(e!.waitUntil!.toISOString()).toBe(at(-24 * HOUR).toISOString());

    await tick(at(-24 * HOUR - 60_000));
    expect(await tagsOf('ann@example.org')).toEqual([]);
    await tick(at(-24 * HOUR));
    expect(await tagsOf('ann@example.org')).toEqual(['reminded-day']);
    expect((await enrollments(reminders.id))[0]!.waitUntil!.toISOString()).toBe(at(-HOUR).toISOString());
    await tick(at(-HOUR));
    expect(await tagsOf('ann@example.org')).toEqual(['reminded-day', 'reminded-hour']);
    expect((await enrollments(reminders.id))[0]!.status).toBe('completed');
  });

  it('goes on at once when the event is already closer than the wait', async () => {
    const late = new Date(START.getTime() - 30 * 60_000);
    const ben = await registerForEvent(
      { ...calendar, now: () => late },
      {
        id: event.id,
        registrant: { name: 'Ben', email: 'ben@example.org' },
        attendees: [{ name: 'Ben', ticketTypeId: event.ticketTypes[0]!.id, answers: [] }],
        answers: [],
      },
    );
    expect(ben.outcome).toBe('confirmed');
    await tick(late);
    expect(await tagsOf('ben@example.org')).toEqual(['reminded-day', 'reminded-hour']);
  });

  it('enters attendees when checked in, and the others when the time ends without a check-in', async () => {
    const ann = await db
      .selectFrom('calendarRegistrations')
      .select('id')
      .where('email', '=', 'ann@example.org')
      .executeTakeFirstOrThrow();
    await checkIn(db, church.id, { id: ann.id }, { now: at(0), staffId: null });
    await tick(at(60_000));
    expect(await tagsOf('ann@example.org')).toContain('attended');
    expect(await tagsOf('ben@example.org')).not.toContain('attended');

    // Before the end nobody has missed it; after it Ben (not checked in) has, once.
    expect(await runMissedEventTriggers(db, new Date(END.getTime() - 60_000))).toBe(0);
    expect(await runMissedEventTriggers(db, END)).toBe(1);
    expect(await runMissedEventTriggers(db, new Date(END.getTime() + HOUR))).toBe(0);
    await tick(new Date(END.getTime() + HOUR));
    expect(await tagsOf('ben@example.org')).toContain('missed');
    expect(await tagsOf('ann@example.org')).not.toContain('missed');
    expect((await enrollments(attended.id)).length).toBe(1);
    expect((await enrollments(missed.id)).map((e) => e.triggerKey)).toEqual([
      expect.stringMatching(/^registration:\d+$/),
    ]);
  });
});

describe("'Registered for an event' starts on a confirmed registration only", () => {
  const another = (o: { title: string; priceCents?: number; capacity?: number; requiresApproval?: boolean }) =>
    createCalendarEvent(db, church.id, {
      ...createEventInput(o),
      requiresApproval: o.requiresApproval ?? false,
      times: [{ startsAt: START, endsAt: END, capacity: o.capacity ?? 10 }],
    });

  it('a paid registration enters when its payment succeeds, not while its seats are held', async () => {
    const supper = await another({ title: 'Supper', priceCents: 1200 });
    const pia = await register('Pia', supper);
    expect(pia.outcome).toBe('payment');
    await tick(T0);
    expect(await entered(pia.registrationId)).toBe(false);
    await completeDemoPayment(calendar, {
      paymentIntent: pia.payment!.intentId,
      clientSecret: pia.payment!.clientSecret,
    });
    await tick(T0);
    expect(await entered(pia.registrationId)).toBe(true);
  });

  it('a waitlisted person enters once they claim the seat offered to them', async () => {
    const walk = await another({ title: 'Prayer walk', capacity: 1 });
    const wes = await register('Wes', walk);
    const val = await register('Val', walk);
    expect([wes.outcome, val.outcome]).toEqual(['confirmed', 'waitlisted']);
    await tick(T0);
    expect(await entered(wes.registrationId)).toBe(true);
    expect(await entered(val.registrationId)).toBe(false);

    await cancelRegistration(calendar, church.id, { id: wes.registrationId });
    const offer = await db
      .selectFrom('calendarRegistrations')
      .select(['status', 'offerToken'])
      .where('id', '=', val.registrationId)
      .executeTakeFirstOrThrow();
    expect(offer.status).toBe('offered');
    await tick(T0);
    expect(await entered(val.registrationId)).toBe(false);
    expect((await claimOffer(calendar, { token: offer.offerToken! })).outcome).toBe('confirmed');
    await tick(T0);
    expect(await entered(val.registrationId)).toBe(true);
  });

  it('a registration waiting for approval enters when staff approve it', async () => {
    const course = await another({ title: 'Alpha course', requiresApproval: true });
    const ama = await register('Ama', course);
    expect(ama.outcome).toBe('pending_approval');
    await tick(T0);
    expect(await entered(ama.registrationId)).toBe(false);
    await updateRegistration(calendar, church.id, { id: ama.registrationId, status: 'confirmed' });
    await tick(T0);
    expect(await entered(ama.registrationId)).toBe(true);
  });
});
