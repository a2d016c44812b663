import { describe, expect, it } from 'vitest';
import { createEvent, inHours, register } from '../helpers/calendar.js';
import { HttpClient, registerChurch } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';

// At the door: a scanned ticket (its address or its token) looked up for the event; a ticket of
// another event says which; another church's ticket or event is a 404. Check-in marks attendees
// arrived once: a second time answers when, in the church's time zone. The person's Activity
// shows the arrival.

const app = await sharedTestApp();
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Church');
await app.db
  .insertInto('churchSettings')
  .values({ userId: grace.user.id, timeZone: 'America/Chicago' })
  .onConflict((oc) => oc.column('userId').doUpdateSet({ timeZone: 'America/Chicago' }))
  .execute();
const visitor = new HttpClient(app.url);

const supper = await createEvent(grace.client, {
  title: 'Harvest supper',
  times: [{ startsAt: '2031-10-05T03:00:00Z' }],
});
const concert = await createEvent(grace.client, {
  title: 'Carol concert',
  times: [{ startsAt: '2031-12-20T00:30:00Z' }],
});
const hopeEvent = await createEvent(hope.client, { title: 'Hope picnic' });

const tokens = (registrationId: number) =>
  app.db
    .selectFrom('calendarAttendees')
    .select(['id', 'name', 'ticketToken'])
    .where('registrationId', '=', registrationId)
    .orderBy('id')
    .execute();

describe('the door', () => {
  it('finds the attendee of a scanned ticket, by its address or its token', async () => {
    const r = await register(visitor, supper, {}, ['Ann Lee', 'Bo Lee']);
    const [, bo] = await tokens(r.body.registrationId);
    const byUrl = await grace.client.get(
      `/api/calendar/events/${supper.id}/tickets?ticket=${encodeURIComponent(`${app.deps.delivery.publicUrl}/tickets/${bo!.ticketToken}`)}`,
    );
    expect(byUrl.status, byUrl.text).toBe(200);
    expect(byUrl.body).toMatchObject({
      registrationId: r.body.registrationId,
      registrant: 'Ann Lee',
      attendee: { name: 'Bo Lee' },
    });
    const byToken = await grace.client.get(`/api/calendar/events/${supper.id}/tickets?ticket=${bo!.ticketToken}`);
    expect(byToken.body.attendee.id).toBe(bo!.id);

    // October 4 in the church's time zone (October 5 in UTC).
    const elsewhere = await grace.client.get(`/api/calendar/events/${concert.id}/tickets?ticket=${bo!.ticketToken}`);
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.message).toBe('This ticket is for Harvest supper (Oct 4, 2031)');

    // Another church: its event, or Grace's ticket scanned at its own event.
    expect((await hope.client.get(`/api/calendar/events/${supper.id}/tickets?ticket=${bo!.ticketToken}`)).status).toBe(
      404,
    );
    expect(
      (await hope.client.get(`/api/calendar/events/${hopeEvent.id}/tickets?ticket=${bo!.ticketToken}`)).status,
    ).toBe(404);
    expect((await grace.client.get(`/api/calendar/events/${supper.id}/tickets?ticket=nonsense`)).status).toBe(404);
  });

  it('checks attendees in once; twice answers when, in the church time zone', async () => {
    const r = await register(visitor, supper, {}, ['Cy Moss', 'Di Moss']);
    const id = r.body.registrationId;
    const [cy, di] = await tokens(id);
    const first = await grace.client.post(`/api/registrations/${id}/check-in`, { attendeeIds: [cy!.id] });
    expect(first.status, first.text).toBe(200);
    expect(first.body.checkedIn.map((a: { name: string }) => a.name)).toEqual(['Cy Moss']);
    const at = new Date(first.body.checkedIn[0].checkedInAt);
    const hhmm = new Intl.DateTimeFormat('en-GB', {
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone: 'America/Chicago',
    }).format(at);
    const twice = await grace.client.post(`/api/registrations/${id}/check-in`, { attendeeIds: [cy!.id] });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe(`Already checked in at ${hhmm}`);
    // The rest of the registration is still welcome.
    const rest = await grace.client.post(`/api/registrations/${id}/check-in`);
    expect(rest.body.checkedIn.map((a: { id: number }) => a.id)).toEqual([di!.id]);
    expect((await grace.client.post(`/api/registrations/${id}/check-in`)).body.message).toBe(
      `Already checked in at ${hhmm}`,
    );
    const stranger = await grace.client.post(`/api/registrations/${id}/check-in`, { attendeeIds: [999999] });
    expect(stranger.status).toBe(400);
    expect(stranger.body.issues[0].path).toBe('attendeeIds.0');

    // The person's Activity and the event log.
    const reg = (await grace.client.get(`/api/registrations/${id}`)).body;
    const activity = await grace.client.get(`/api/contacts/${reg.contactId}/events`);
    expect(activity.status, activity.text).toBe(200);
    const types = activity.body.events.map((e: { type: string }) => e.type);
    expect(types).toContain('registration.checked_in');
    expect(types).toContain('registration.created');
    const arrived = activity.body.events.filter((e: { type: string }) => e.type === 'registration.checked_in');
    expect(arrived.map((e: { data: { attendees: string[] } }) => e.data.attendees)).toEqual([['Di Moss'], ['Cy Moss']]);
  });

  it('checks in only confirmed registrations', async () => {
    const tiny = await createEvent(grace.client, {
      title: 'Tiny door',
      times: [{ startsAt: inHours(10), capacity: 1 }],
    });
    await register(visitor, tiny, {}, ['Ed First']);
    const waiting = await register(visitor, tiny, {}, ['Fi Waits']);
    const res = await grace.client.post(`/api/registrations/${waiting.body.registrationId}/check-in`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This registration is waitlisted, not confirmed: it cannot be checked in');
  });
});
