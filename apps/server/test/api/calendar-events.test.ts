import { describe, expect, it } from 'vitest';
import { eventsSettled } from '@lampstand/api/server';
import { createEvent, inHours, register } from '../helpers/calendar.js';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { giveHandle } from '../helpers/portal.js';

// A church's calendar events through /api/calendar/events: create with times, ticket types,
// discount codes and questions; read, list, partial change (a part list is the whole set), delete;
// the worded errors naming the field; another church's event is a 404; publishing is logged once;
// the event's iCalendar file.

const app = await startTestApp();
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Church');
const visitor = new HttpClient(app.url);

describe('calendar events', () => {
  it('creates an event with its parts and reads it back', async () => {
    const e = await createEvent(grace.client, {
      title: 'Alpha course',
      status: 'draft',
      descriptionHtml: '<p>Food and <script>x()</script>questions</p>',
      locationName: 'Church hall',
      address: '1 Main St',
      audienceTags: ['newcomers'],
      registrationOpensAt: inHours(1),
      registrationClosesAt: inHours(40),
      times: [
        { startsAt: inHours(48), capacity: 20 },
        { startsAt: inHours(48 + 168), capacity: 30 },
      ],
      ticketTypes: [
        { name: 'Adult', priceCents: 1500, capacity: 15 },
        { name: 'Family', priceCents: 4000, maxPerRegistration: 6 },
      ],
      discountCodes: [{ code: 'EARLY', percentOff: 10, maxUses: 5 }],
      questions: [
        { kind: 'choice', label: 'Dietary needs', choices: ['None', 'Vegetarian'], required: true },
        { scope: 'attendee', kind: 'number', label: 'Age' },
      ],
    });
    expect(e.slug).toBe('alpha-course');
    const got = await grace.client.get(`/api/calendar/events/${e.id}`);
    expect(got.status).toBe(200);
    expect(got.body.descriptionHtml).not.toContain('script');
    expect(got.body.times.map((t: { capacity: number }) => t.capacity)).toEqual([20, 30]);
    expect(got.body.ticketTypes.map((t: { name: string }) => t.name)).toEqual(['Adult', 'Family']);
    expect(got.body.questions[1]).toMatchObject({ scope: 'attendee', kind: 'number', required: false });
    expect(got.body.discountCodes[0]).toMatchObject({ code: 'EARLY', percentOff: 10, uses: 0 });
    const list = await grace.client.get('/api/calendar/events?status=draft&search=alpha');
    expect(list.body.map((x: { id: number }) => x.id)).toContain(e.id);
    // A second event of the same title gets the next free address.
    expect((await createEvent(grace.client, { title: 'Alpha course' })).slug).toBe('alpha-course-2');
  });

  it('changes only the fields sent, and parts as a set', async () => {
    const e = await createEvent(grace.client, {
      title: 'Youth camp',
      ticketTypes: [
        { name: 'Camper', priceCents: 0 },
        { name: 'Leader', priceCents: 0 },
      ],
    });
    const one = await grace.client.patch(`/api/calendar/events/${e.id}`, { locationName: 'Lake lodge' });
    expect(one.status, one.text).toBe(200);
    expect(one.body).toMatchObject({ title: 'Youth camp', locationName: 'Lake lodge', status: 'published' });
    expect(one.body.ticketTypes).toHaveLength(2);
    const camper = e.ticketTypes[0]!;
    const parts = await grace.client.patch(`/api/calendar/events/${e.id}`, {
      ticketTypes: [{ id: camper.id, name: 'Camper', priceCents: 0, capacity: 40 }, { name: 'Day visitor' }],
    });
    expect(parts.status, parts.text).toBe(200);
    expect(parts.body.ticketTypes.map((t: { name: string; capacity: number | null }) => [t.name, t.capacity])).toEqual([
      ['Camper', 40],
      ['Day visitor', null],
    ]);
  });

  it('refuses bad input with a worded error naming the field', async () => {
    const closes = await grace.client.post('/api/calendar/events', {
      title: 'Backwards',
      times: [{ startsAt: inHours(10) }],
      registrationOpensAt: inHours(5),
      registrationClosesAt: inHours(2),
    });
    expect(closes.status).toBe(400);
    expect(closes.body.message).toBe('Registration must close after it opens');
    expect(closes.body.issues[0].path).toBe('registrationClosesAt');

    const e = await createEvent(grace.client, {
      title: 'Small group',
      times: [{ startsAt: inHours(30), capacity: 3 }],
    });
    expect((await register(visitor, e, {}, ['Ann Lee', 'Bo Lee'])).body.outcome).toBe('confirmed');
    const below = await grace.client.patch(`/api/calendar/events/${e.id}`, {
      times: [{ id: e.times[0]!.id, startsAt: inHours(30), capacity: 1 }],
    });
    expect(below.status).toBe(400);
    expect(below.body.message).toBe('Capacity cannot be below the 2 seats already taken');
    expect(below.body.issues[0].path).toBe('times.0.capacity');
    const gone = await grace.client.patch(`/api/calendar/events/${e.id}`, { times: [{ startsAt: inHours(31) }] });
    expect(gone.status).toBe(409);

    const approval = await grace.client.patch(`/api/calendar/events/${e.id}`, {
      requiresApproval: true,
      ticketTypes: [{ id: e.ticketTypes[0]!.id, name: 'Adult', priceCents: 500 }],
    });
    expect(approval.status).toBe(400);
    expect(approval.body.issues[0].path).toBe('requiresApproval');

    const slug = await grace.client.post('/api/calendar/events', {
      title: 'Again',
      slug: 'small-group',
      times: [{ startsAt: inHours(10) }],
    });
    expect(slug.status).toBe(409);
    expect(slug.body.message).toContain('small-group');

    const noTime = await grace.client.post('/api/calendar/events', { title: 'No time', times: [] });
    expect(noTime.status).toBe(400);
    expect(noTime.text).toContain('An event needs at least one time');
    // Deleting an event with registrations is refused; a cancelled status is the way.
    expect((await grace.client.delete(`/api/calendar/events/${e.id}`)).status).toBe(409);
  });

  it("treats another church's event as not found", async () => {
    const e = await createEvent(grace.client, { title: 'Grace only' });
    for (const res of [
      await hope.client.get(`/api/calendar/events/${e.id}`),
      await hope.client.patch(`/api/calendar/events/${e.id}`, { title: 'Mine now' }),
      await hope.client.delete(`/api/calendar/events/${e.id}`),
      await hope.client.get(`/api/calendar/events/${e.id}/registrations`),
      await hope.client.get(`/api/calendar/events/${e.id}/calendar.ics`),
      await hope.client.get(`/api/calendar/events/${e.id}/registrations/export`),
    ]) {
      expect(res.status).toBe(404);
    }
    expect((await grace.client.get(`/api/calendar/events/${e.id}`)).body.title).toBe('Grace only');
  });

  it('logs publishing once, and deletes an event nobody registered for', async () => {
    const e = await createEvent(grace.client, { title: 'Christmas service', status: 'draft' });
    // A draft is not open to the public.
    expect((await register(visitor, e)).status).toBe(404);
    await grace.client.patch(`/api/calendar/events/${e.id}`, { status: 'published' });
    await grace.client.patch(`/api/calendar/events/${e.id}`, { status: 'draft' });
    await grace.client.patch(`/api/calendar/events/${e.id}`, { status: 'published' });
    await eventsSettled(app.db);
    const log = await grace.client.get('/api/events?types=calendar_event.published');
    const mine = log.body.events.filter(
      (x: { data: { calendarEvent: { id: number } } }) => x.data.calendarEvent.id === e.id,
    );
    expect(mine).toHaveLength(1);
    expect(mine[0].data).toMatchObject({ calendarEvent: { name: 'Christmas service' }, slug: 'christmas-service' });
    const other = await createEvent(grace.client, { title: 'To delete' });
    expect((await grace.client.delete(`/api/calendar/events/${other.id}`)).status).toBe(200);
    expect((await grace.client.get(`/api/calendar/events/${other.id}`)).status).toBe(404);
  });

  it("writes the event's iCalendar file with every time", async () => {
    const e = await createEvent(grace.client, {
      title: 'Carols; by candlelight',
      locationName: 'Park',
      times: [
        { startsAt: '2030-12-20T18:00:00Z' },
        { startsAt: '2030-12-21T18:00:00Z', endsAt: '2030-12-21T19:30:00Z' },
      ],
    });
    const ics = await grace.client.get(`/api/calendar/events/${e.id}/calendar.ics`);
    expect(ics.status).toBe(200);
    expect(ics.headers.get('content-type')).toContain('text/calendar');
    expect(ics.text.match(/BEGIN:VEVENT/g)).toHaveLength(2);
    expect(ics.text).toContain('SUMMARY:Carols\\; by candlelight');
    expect(ics.text).toContain('DTSTART:20301220T180000Z');
    expect(ics.text).toContain('DTEND:20301221T193000Z');
  });

  it("publishes the church's public events as an iCalendar feed", async () => {
    const handle = await giveHandle(app.db, grace.user.id, 'grace-calendar');
    await createEvent(grace.client, { title: 'Open day', times: [{ startsAt: '2031-05-01T15:00:00Z' }] });
    await createEvent(grace.client, { title: 'Members meeting', visibility: 'members' });
    await createEvent(grace.client, { title: 'Still a draft', status: 'draft' });
    const feed = await visitor.get(`/c/${handle}/events.ics`);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toContain('text/calendar');
    expect(feed.text).toContain('SUMMARY:Open day');
    expect(feed.text).toContain(`/c/${handle}/events/open-day`);
    expect(feed.text).not.toContain('Members meeting');
    expect(feed.text).not.toContain('Still a draft');
    expect((await visitor.get('/c/no-such-church/events.ics')).status).toBe(404);
  });
});
