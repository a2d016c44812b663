import { describe, expect, it } from 'vitest';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import type { JobQueue } from '../../jobs.js';
import { createDemoPayments } from '../../providers/payments.js';
import { journeyFieldsSchema, type JourneyFieldsInput } from '../../schemas/journeys.js';
import { createCalendarEvent } from '../calendar/events.js';
import { registerForEvent } from '../calendar/register.js';
import { checkIn } from '../calendar/door.js';
import { createEventInput } from '../calendar/test-input.js';
import { activateJourney, createJourney } from './definitions.js';
import { runDueEnrollments } from './runner.js';
import { processJourneyTriggers } from './triggers.js';
import { runMissedEventTriggers } from './event-triggers.js';
import { eventsSettled } from '../events/log.js';

// Journeys started by calendar events, on a clock the test holds: registered (with reminders a
// day and an hour before the event, waits of the 'before the event' kind), attended (checked in at
// the door), and did not attend (the time ended without a check-in), each registration once.

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
const register = (name: string) =>
  registerForEvent(calendar, {
    id: event.id,
    registrant: { name, email: `${name.toLowerCase()}@example.org` },
    attendees: [{ name, ticketTypeId: event.ticketTypes[0]!.id, answers: [] }],
    answers: [],
  });
/** The journeys' tags on a contact (registrants carry the source's own tag too). */
const tagsOf = async (email: string) =>
  (await db.selectFrom('contacts').select('tags').where('email', '=', email).executeTakeFirstOrThrow()).tags.filter(
    (t) => t !== 'event',
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
