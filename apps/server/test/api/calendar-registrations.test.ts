import { describe, expect, it } from 'vitest';
import { eventsSettled } from '@lampstand/api/server';
import { createEvent, inHours, register, registrationMail } from '../helpers/calendar.js';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';

// Registering for a free event without signing in (several attendees, answers, ticket types, a
// discount code), the waitlist when a time is full, the approval step, and the staff's registrant
// list (search, filters, CSV), changes, walk-ins; worded errors naming the field; another
// church's registration is a 404.

const app = await startTestApp();
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Church');
const visitor = new HttpClient(app.url);

const breakfast = await createEvent(grace.client, {
  title: 'Women’s breakfast',
  times: [{ startsAt: inHours(72), capacity: 4 }],
  ticketTypes: [
    { name: 'Adult', priceCents: 0, maxPerRegistration: 3 },
    { name: 'Child', priceCents: 0, capacity: 1 },
  ],
  questions: [
    { kind: 'choice', label: 'Dietary needs', choices: ['None', 'Vegetarian', 'Gluten free'], required: true },
    { scope: 'attendee', kind: 'yes_no', label: 'First time?' },
  ],
});
const [adult, child] = breakfast.ticketTypes;
const [diet, firstTime] = breakfast.questions;

const form = (over: Record<string, unknown> = {}) => ({
  answers: [{ questionId: diet!.id, value: 'Vegetarian' }],
  ...over,
});

describe('registering', () => {
  it('confirms a free registration with its attendees and answers, and emails the tickets', async () => {
    const res = await visitor.post(`/api/public/calendar/events/${breakfast.id}/register`, {
      registrant: { name: 'Ann Lee', email: 'ann@example.org' },
      attendees: [
        { name: 'Ann Lee', ticketTypeId: adult!.id, answers: [{ questionId: firstTime!.id, value: true }] },
        { name: 'Kid Lee', ticketTypeId: child!.id },
      ],
      answers: [{ questionId: diet!.id, value: 'Vegetarian' }],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ outcome: 'confirmed', totalCents: 0, payment: null });
    const reg = await grace.client.get(`/api/registrations/${res.body.registrationId}`);
    expect(reg.body).toMatchObject({ status: 'confirmed', seats: 2, name: 'Ann Lee' });
    expect(reg.body.answers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ label: 'Dietary needs', value: 'Vegetarian', attendeeId: null }),
        expect.objectContaining({ label: 'First time?', value: true }),
      ]),
    );
    const mail = await registrationMail(app.db, res.body.registrationId, 1);
    expect(mail[0]!.subject).toBe('You’re registered: Women’s breakfast'.replace('’', "'"));
    expect(mail[0]!.attachments.map((a) => a.fileName)).toEqual([
      'ticket-1-Ann-Lee.png',
      'ticket-2-Kid-Lee.png',
      'women-s-breakfast.ics',
    ]);
    await eventsSettled(app.db);
    const log = await grace.client.get('/api/events?types=registration.created');
    expect(log.body.events.at(-1).data).toMatchObject({
      registrationId: res.body.registrationId,
      status: 'confirmed',
      attendees: 2,
    });
  });

  it('refuses bad input with a worded error naming the field', async () => {
    const missing = await register(visitor, breakfast, { answers: [] });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('"Dietary needs" needs an answer');
    expect(missing.body.issues[0].path).toBe(`answers.${diet!.id}`);

    const wrong = await register(visitor, breakfast, form({ answers: [{ questionId: diet!.id, value: 'Cake' }] }));
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('choose one of None, Vegetarian, Gluten free');

    // The one child seat is taken: a ticket of a full type.
    const full = await visitor.post(`/api/public/calendar/events/${breakfast.id}/register`, {
      registrant: { name: 'Bo Park', email: 'bo@example.org' },
      attendees: [{ name: 'Little Park', ticketTypeId: child!.id }],
      ...form(),
    });
    expect(full.status).toBe(409);
    expect(full.body.message).toBe('Child tickets are sold out for this time');
    expect(full.body.issues[0].path).toBe('attendees.0.ticketTypeId');

    const many = await register(visitor, breakfast, form(), ['A One', 'B Two', 'C Three', 'D Four']);
    expect(many.status).toBe(400);
    expect(many.body.message).toBe('At most 3 Adult tickets per registration');

    const otherType = await visitor.post(`/api/public/calendar/events/${breakfast.id}/register`, {
      registrant: { name: 'Cy', email: 'cy@example.org' },
      attendees: [{ name: 'Cy', ticketTypeId: 999999 }],
      ...form(),
    });
    expect(otherType.status).toBe(400);
    expect(otherType.body.issues[0].path).toBe('attendees.0.ticketTypeId');
  });

  it('puts people on the waitlist when the time is full, never refusing them', async () => {
    const e = await createEvent(grace.client, { title: 'Tiny', times: [{ startsAt: inHours(30), capacity: 1 }] });
    expect((await register(visitor, e)).body.outcome).toBe('confirmed');
    const second = await register(visitor, e, {}, ['Dee Ward']);
    expect(second.body).toMatchObject({ outcome: 'waitlisted', payment: null });
    expect(second.body.message).toContain('Nothing is charged');
    const got = await grace.client.get(`/api/calendar/events/${e.id}`);
    expect(got.body.times[0].seatsTaken).toBe(1);
    expect(got.body.counts).toMatchObject({ confirmed: 1, waitlisted: 1, held: 0, cancelled: 0 });
    // Without a waitlist the form says the time is full.
    await grace.client.patch(`/api/calendar/events/${e.id}`, { waitlist: false });
    const refused = await register(visitor, e, {}, ['Eve Stone']);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This time is full');
  });

  it('applies discount codes and refuses an expired one', async () => {
    const e = await createEvent(grace.client, {
      title: 'Gala',
      ticketTypes: [{ name: 'Adult', priceCents: 0 }],
      discountCodes: [
        { code: 'OLD', amountOffCents: 500, expiresAt: new Date(Date.now() - 60_000).toISOString() },
        { code: 'ONCE', percentOff: 50, maxUses: 1 },
      ],
    });
    const expired = await register(visitor, e, { discountCode: 'old' });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe('Discount code old has expired');
    expect(expired.body.issues[0].path).toBe('discountCode');
    expect((await register(visitor, e, { discountCode: 'ONCE' })).status).toBe(200);
    const spent = await register(visitor, e, { discountCode: 'once' });
    expect(spent.body.message).toBe('Discount code once has been used up');
    expect((await register(visitor, e, { discountCode: 'NOPE' })).body.message).toBe('Discount code NOPE is not known');
  });

  it('waits for approval, then staff approve or decline', async () => {
    const e = await createEvent(grace.client, { title: 'Leaders retreat', requiresApproval: true });
    const a = await register(visitor, e, {}, ['Fay Lim']);
    expect(a.body.outcome).toBe('pending_approval');
    const b = await register(visitor, e, {}, ['Gus Roe']);
    const ok = await grace.client.patch(`/api/registrations/${a.body.registrationId}`, { status: 'confirmed' });
    expect(ok.body.status).toBe('confirmed');
    const no = await grace.client.patch(`/api/registrations/${b.body.registrationId}`, { status: 'declined' });
    expect(no.body.status).toBe('declined');
    expect((await grace.client.get(`/api/calendar/events/${e.id}`)).body.times[0].seatsTaken).toBe(1);
    const again = await grace.client.patch(`/api/registrations/${a.body.registrationId}`, { status: 'declined' });
    expect(again.status).toBe(409);
  });

  it('lists, filters and exports registrants, and edits a registration partially', async () => {
    const e = await createEvent(grace.client, {
      title: 'Picnic',
      ticketTypes: [{ name: 'Adult' }, { name: 'Child' }],
      questions: [{ kind: 'short_text', label: 'Bringing' }],
    });
    const q = e.questions[0]!.id;
    await register(visitor, e, { answers: [{ questionId: q, value: 'Salad' }] }, ['Hal Yu']);
    const kids = await visitor.post(`/api/public/calendar/events/${e.id}/register`, {
      registrant: { name: 'Ivy Poe', email: 'ivy@example.org' },
      attendees: [{ name: 'Jo Poe', ticketTypeId: e.ticketTypes[1]!.id }],
      answers: [{ questionId: q, value: 'Cake' }],
    });
    const walkIn = await grace.client.post(`/api/calendar/events/${e.id}/registrations`, {
      registrant: { name: 'Kai Walk', email: 'kai@example.org' },
      attendees: [{ name: 'Kai Walk', ticketTypeId: e.ticketTypes[0]!.id }],
    });
    expect(walkIn.status, walkIn.text).toBe(201);
    const base = `/api/calendar/events/${e.id}/registrations`;
    const names = async (query: string) =>
      (await grace.client.get(`${base}?${query}`)).body.registrations.map((r: { name: string }) => r.name);
    expect(await names('')).toEqual(['Hal Yu', 'Ivy Poe', 'Kai Walk']);
    expect(await names('search=jo')).toEqual(['Ivy Poe']);
    expect(await names(`ticketTypeId=${e.ticketTypes[1]!.id}`)).toEqual(['Ivy Poe']);
    expect(await names(`questionId=${q}&answer=salad`)).toEqual(['Hal Yu']);
    await grace.client.post(`/api/registrations/${walkIn.body.id}/check-in`);
    expect(await names('checkedIn=yes')).toEqual(['Kai Walk']);
    expect(await names('checkedIn=no')).toEqual(['Hal Yu', 'Ivy Poe']);

    const edit = await grace.client.patch(`/api/registrations/${kids.body.registrationId}`, {
      phone: '555 0100',
      answers: [{ questionId: q, value: 'Lemonade' }],
    });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body).toMatchObject({ name: 'Ivy Poe', email: 'ivy@example.org', phone: '555 0100' });
    expect(edit.body.answers).toEqual([expect.objectContaining({ value: 'Lemonade' })]);

    const csv = await grace.client.get(`${base}/export`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = csv.text.trim().split('\n');
    expect(lines[0]).toContain('Registrant,Email,Phone,Attendee,Ticket');
    expect(lines[0]).toContain('Bringing');
    expect(lines.find((l) => l.includes('Jo Poe'))).toContain('Lemonade');
  });

  it("treats another church's registration as not found", async () => {
    const r = await register(visitor, breakfast, form(), ['Lu Chen']);
    const id = r.body.registrationId;
    for (const res of [
      await hope.client.get(`/api/registrations/${id}`),
      await hope.client.patch(`/api/registrations/${id}`, { name: 'X' }),
      await hope.client.post(`/api/registrations/${id}/check-in`),
      await hope.client.post(`/api/registrations/${id}/cancel`),
      await hope.client.post(`/api/calendar/events/${breakfast.id}/registrations`, {
        registrant: { name: 'X', email: 'x@example.org' },
        attendees: [{ name: 'X', ticketTypeId: adult!.id }],
      }),
    ]) {
      expect(res.status).toBe(404);
    }
  });

  it('keeps to the registration window, the times of a series and who may see the event', async () => {
    const series = await createEvent(grace.client, {
      title: 'Alpha',
      times: [
        { startsAt: inHours(30), capacity: 1 },
        { startsAt: inHours(200), capacity: 1 },
      ],
    });
    const none = await register(visitor, series);
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Choose a time');
    expect(none.body.issues[0].path).toBe('timeId');
    const [first, second] = series.times;
    expect((await register(visitor, series, { timeId: first!.id }, ['Ma One'])).body.outcome).toBe('confirmed');
    // Each time has its own seats.
    expect((await register(visitor, series, { timeId: second!.id }, ['Ni Two'])).body.outcome).toBe('confirmed');
    expect((await register(visitor, series, { timeId: first!.id }, ['Ol Three'])).body.outcome).toBe('waitlisted');

    const later = await createEvent(grace.client, { title: 'Later', registrationOpensAt: inHours(5) });
    expect((await register(visitor, later)).body.message).toBe('Registration has not opened yet');
    const closed = await createEvent(grace.client, {
      title: 'Closed',
      registrationOpensAt: inHours(-5),
      registrationClosesAt: inHours(-1),
    });
    expect((await register(visitor, closed)).body.message).toBe('Registration has closed');
    const members = await createEvent(grace.client, { title: 'Members only', visibility: 'members' });
    expect((await register(visitor, members)).status).toBe(403);
    const link = await createEvent(grace.client, { title: 'By link', visibility: 'link' });
    expect((await register(visitor, link)).body.outcome).toBe('confirmed');
    await grace.client.patch(`/api/calendar/events/${link.id}`, { status: 'cancelled' });
    const cancelled = await register(visitor, link, {}, ['Pa Late']);
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.message).toBe('This event was cancelled');
  });

  it('lets webhook endpoints subscribe to the registration events', async () => {
    const types = [
      'registration.created',
      'registration.cancelled',
      'registration.checked_in',
      'calendar_event.published',
    ];
    const hook = await grace.client.post('/api/webhooks', {
      url: 'https://hooks.example.org/lampstand',
      eventTypes: types,
    });
    expect(hook.status, hook.text).toBe(201);
    expect(hook.body.eventTypes).toEqual(types);
  });
});
