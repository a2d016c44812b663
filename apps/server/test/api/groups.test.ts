import { describe, expect, it } from 'vitest';
import { churchAttendanceOutputSchema } from '@lampstand/api/schemas/groups-people';
import { addContact, HttpClient, registerChurch } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';

// Staff groups over REST: groups, members, meetings, attendance (offline-safe), the church-wide
// attendance read, worded errors and another church's ids.
const app = await sharedTestApp();
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
const g = grace.client;

const ann = await addContact(g, { firstName: 'Ann', lastName: 'Lee', email: 'ann.g@example.org', phone: '+15550101' });
const bob = await addContact(g, { firstName: 'Bob', lastName: 'Ng', email: 'bob.g@example.org' });
const cat = await addContact(g, { firstName: 'Cat', lastName: 'Ode', email: 'cat.g@example.org' });
const dan = await addContact(g, { firstName: 'Dan', lastName: 'Poe', email: 'dan.g@example.org' });

const tuesday = (
  await g.post('/api/groups', {
    name: 'Tuesday Night',
    type: 'Small group',
    frequency: 'weekly',
    weekday: 2,
    time: '19:00',
    area: 'Northside',
    latitude: -33.8712,
    longitude: 151.2099,
    tags: ['kid-friendly'],
    joinMode: 'request',
    leaderContactIds: [ann.id],
  })
).body;
const youth = (await g.post('/api/groups', { name: 'Youth', type: 'Class', frequency: 'by_arrangement' })).body;

describe('groups', () => {
  it('creates a group with its leader, reads and lists it with filters', async () => {
    expect(tuesday.id).toBeGreaterThan(0);
    expect(tuesday.leaders).toEqual([{ contactId: ann.id, name: 'Ann Lee' }]);
    expect(tuesday.time).toBe('19:00');
    expect(tuesday.memberCount).toBe(1);
    expect(tuesday.nextMeeting).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(new Date(`${tuesday.nextMeeting}T00:00:00Z`).getUTCDay()).toBe(2);
    expect(youth.nextMeeting).toBeNull();
    const one = await g.get(`/api/groups/${tuesday.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ name: 'Tuesday Night', missedLastThree: [], pendingRequests: 0 });
    const byDay = await g.get('/api/groups?weekday=2');
    expect(byDay.body.groups.map((x: { id: number }) => x.id)).toEqual([tuesday.id]);
    const byType = await g.get('/api/groups?type=class');
    expect(byType.body.groups.map((x: { id: number }) => x.id)).toEqual([youth.id]);
    const byLeader = await g.get(`/api/groups?leaderContactId=${ann.id}`);
    expect(byLeader.body.total).toBe(1);
    expect((await g.get('/api/groups?trend=up')).body.total).toBe(0);
  });

  it('exports the list as CSV through the one CSV writer', async () => {
    const res = await g.request('GET', '/api/groups', undefined, { accept: 'text/csv' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.text.split('\n')[0]).toContain('Name,Type,How often,Day,Time');
    expect(res.text).toContain('Tuesday Night,Small group,Weekly,Tuesday,19:00,Northside,kid-friendly,1');
  });

  it('changes one field with PATCH and keeps the others', async () => {
    const res = await g.patch(`/api/groups/${youth.id}`, { description: 'For teenagers' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ description: 'For teenagers', type: 'Class', frequency: 'by_arrangement' });
  });

  it('answers worded errors naming the field', async () => {
    const badTime = await g.post('/api/groups', { name: 'X', weekday: 1, time: '7pm' });
    expect(badTime.status).toBe(400);
    expect(badTime.text).toContain('Time must be a time as HH:MM');
    const noDay = await g.post('/api/groups', { name: 'X', frequency: 'weekly' });
    expect(noDay.status).toBe(400);
    expect(noDay.body.issues[0]).toMatchObject({ path: 'weekday' });
    const patchNoDay = await g.patch(`/api/groups/${youth.id}`, { frequency: 'weekly' });
    expect(patchNoDay.status).toBe(400);
    expect(patchNoDay.body.message).toBe('Day is required unless it meets by arrangement');
    await g.post(`/api/groups/${tuesday.id}/members`, { contactIds: [bob.id, cat.id] });
    const small = await g.patch(`/api/groups/${tuesday.id}`, { capacity: 2 });
    expect(small.status).toBe(400);
    expect(small.body).toMatchObject({
      message: 'Capacity cannot be below the 3 members the group has',
      issues: [{ path: 'capacity' }],
    });
    const meetingTime = await g.post(`/api/groups/${tuesday.id}/meetings`, { date: '2026-03-03', time: '25:00' });
    expect(meetingTime.status).toBe(400);
    expect(meetingTime.text).toContain('Time must be a time as HH:MM');
  });

  it('adds members, refuses more than the capacity, and lets someone leave with their history kept', async () => {
    expect((await g.patch(`/api/groups/${tuesday.id}`, { capacity: 3 })).status).toBe(200);
    const full = await g.post(`/api/groups/${tuesday.id}/members`, { contactIds: [dan.id] });
    expect(full.status).toBe(409);
    expect(full.body.message).toBe('This group is full: it takes 3 people and has 3');
    const roster = (await g.get(`/api/groups/${tuesday.id}/members`)).body;
    expect(roster.map((m: { name: string; role: string }) => [m.name, m.role])).toEqual([
      ['Ann Lee', 'leader'],
      ['Bob Ng', 'member'],
      ['Cat Ode', 'member'],
    ]);
    expect(roster[0].email).toBe('ann.g@example.org');
    const left = await g.delete(`/api/groups/${tuesday.id}/members/${cat.id}`);
    expect(left.status).toBe(200);
    expect((await g.delete(`/api/groups/${tuesday.id}/members/${cat.id}`)).status).toBe(404);
    const withLeft = (await g.get(`/api/groups/${tuesday.id}/members?includeLeft=true`)).body;
    expect(withLeft.find((m: { contactId: number }) => m.contactId === cat.id).leftOn).toMatch(/^\d{4}-/);
    const events = await app.db
      .selectFrom('events')
      .select(['type', 'contactId'])
      .where('userId', '=', grace.user.id)
      .where('type', 'like', 'group.%')
      .orderBy('id')
      .execute();
    expect(events).toEqual(
      expect.arrayContaining([
        { type: 'group.member_joined', contactId: bob.id },
        { type: 'group.member_left', contactId: cat.id },
      ]),
    );
  });

  it('moves and copies people between groups', async () => {
    const copy = await g.post(`/api/groups/${tuesday.id}/members/move`, {
      toGroupId: youth.id,
      contactIds: [bob.id],
      mode: 'copy',
    });
    expect(copy.body).toEqual({ toGroupId: youth.id, added: 1, left: 0 });
    const move = await g.post(`/api/groups/${youth.id}/members/move`, {
      toGroupId: tuesday.id,
      contactIds: [bob.id],
      mode: 'move',
    });
    expect(move.body).toEqual({ toGroupId: tuesday.id, added: 0, left: 1 });
    const notIn = await g.post(`/api/groups/${youth.id}/members/move`, { toGroupId: tuesday.id, contactIds: [dan.id] });
    expect(notIn.status).toBe(400);
    expect(notIn.body.issues[0].path).toBe('contactIds');
  });

  it('makes a day’s meeting once, and records attendance sent twice with one key once', async () => {
    const first = await g.post(`/api/groups/${tuesday.id}/meetings`, { date: '2026-03-03' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ date: '2026-03-03', time: '19:00', created: true, recorded: false });
    const again = await g.post(`/api/groups/${tuesday.id}/meetings`, { date: '2026-03-03' });
    expect(again.body).toMatchObject({ id: first.body.id, created: false });
    const path = `/api/groups/${tuesday.id}/meetings/${first.body.id}/attendance`;
    const body = { present: [ann.id, bob.id], visitors: ['Eve Visitor'], clientKey: 'phone-1-2026-03-03' };
    const sent = await g.put(path, body);
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ applied: true, recorded: true, visitors: ['Eve Visitor'] });
    expect(sent.body.present.map((p: { name: string }) => p.name)).toEqual(['Ann Lee', 'Bob Ng']);
    const twice = await g.put(path, { ...body, present: [ann.id] });
    expect(twice.body.applied).toBe(false);
    expect(twice.body.present).toHaveLength(2);
    const recorded = await app.db
      .selectFrom('events')
      .select('id')
      .where('userId', '=', grace.user.id)
      .where('type', '=', 'group.attendance_recorded')
      .execute();
    expect(recorded).toHaveLength(1);
    const stranger = await g.put(path, { present: [dan.id], clientKey: 'phone-1-other' });
    expect(stranger.status).toBe(400);
    expect(stranger.body.issues[0].path).toBe('present');
    expect((await g.get(`/api/groups/${tuesday.id}/meetings?from=2026-03-01&to=2026-03-31`)).body).toHaveLength(1);
  });

  it('reads every meeting of many groups in one answer, paged by meeting', async () => {
    for (const date of ['2026-03-10', '2026-03-17']) {
      const m = (await g.post(`/api/groups/${tuesday.id}/meetings`, { date })).body;
      await g.put(`/api/groups/${tuesday.id}/meetings/${m.id}/attendance`, { present: [ann.id] });
    }
    await g.post(`/api/groups/${youth.id}/meetings`, { date: '2026-03-12' });
    const page1 = await g.get(`/api/groups/attendance?from=2026-03-01&to=2026-03-31&limit=2`);
    expect(page1.status).toBe(200);
    expect(page1.body.meetings.map((m: { date: string }) => m.date)).toEqual(['2026-03-03', '2026-03-10']);
    expect(page1.body.meetings[0].present).toEqual([ann.id, bob.id].sort((a, b) => a - b));
    const page2 = await g.get(
      `/api/groups/attendance?from=2026-03-01&to=2026-03-31&limit=2&cursor=${page1.body.nextCursor}`,
    );
    expect(page2.body.meetings.map((m: { date: string }) => m.date)).toEqual(['2026-03-12', '2026-03-17']);
    expect(page2.body.nextCursor).toBeNull();
    const one = await g.get(`/api/groups/attendance?from=2026-03-01&to=2026-03-31&groupIds=${youth.id}`);
    expect(one.body.meetings).toHaveLength(1);
    const bad = await g.get('/api/groups/attendance?from=2026-03-31&to=2026-03-01');
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0].path).toBe('to');
    const detail = (await g.get(`/api/groups/${tuesday.id}`)).body;
    expect(detail.attendanceRate).toBeGreaterThan(0);
    expect(detail.missedLastThree).toEqual([]);
    expect(detail.recentMeetings[0]).toMatchObject({ date: '2026-03-17', present: 1 });
  });

  it("writes the attendance page's JSON in the database: the same answer as tRPC's, checked by the schema", async () => {
    // Names that need escaping in JSON, a meeting without a time, and an empty attendance.
    const odd = (await g.post('/api/groups', { name: 'Quotes "and" \\ back\tslash é ✓', frequency: 'by_arrangement' }))
      .body;
    const eve = await addContact(g, { firstName: 'Eve', lastName: 'Ray', email: 'eve.g@example.org' });
    await g.post(`/api/groups/${odd.id}/members`, { contactIds: [bob.id, cat.id, eve.id] });
    const m = (await g.post(`/api/groups/${odd.id}/meetings`, { date: '2026-03-14' })).body;
    expect(m.time).toBeNull();
    await g.put(`/api/groups/${odd.id}/meetings/${m.id}/attendance`, {
      present: [eve.id, cat.id, bob.id],
      visitors: ['Zoë "Z" O\'Neil', 'line\nbreak'],
    });
    await g.post(`/api/groups/${odd.id}/meetings`, { date: '2026-03-15' });
    const query = 'from=2026-03-01&to=2026-03-31&limit=3';
    const rest = await g.get(`/api/groups/attendance?${query}`);
    expect(rest.status).toBe(200);
    expect(rest.headers.get('content-type')).toContain('application/json');
    const input = encodeURIComponent(JSON.stringify({ from: '2026-03-01', to: '2026-03-31', limit: 3 }));
    const trpc = await g.get(`/trpc/groups.attendance?input=${input}`);
    expect(rest.body).toEqual(trpc.body.result.data);
    expect(churchAttendanceOutputSchema.parse(rest.body)).toEqual(rest.body);
    const all = [...rest.body.meetings];
    let cursor = rest.body.nextCursor;
    expect(cursor).toMatch(/^2026-03-\d{2}_\d+$/);
    while (cursor) {
      const next = await g.get(`/api/groups/attendance?${query}&cursor=${cursor}`);
      all.push(...next.body.meetings);
      cursor = next.body.nextCursor;
    }
    const saturday = all.find((x: { meetingId: number }) => x.meetingId === m.id);
    expect(saturday).toEqual({
      meetingId: m.id,
      groupId: odd.id,
      groupName: odd.name,
      date: '2026-03-14',
      time: null,
      present: [bob.id, cat.id, eve.id].sort((a, b) => a - b),
      visitors: ['Zoë "Z" O\'Neil', 'line\nbreak'],
      recorded: true,
    });
    // Each meeting's JSON is kept by triggers (migration 0155) with what it shows: attendance
    // replaced, a person deleted, the group renamed, a meeting deleted with its group.
    const saturdayNow = async () =>
      (await g.get(`/api/groups/attendance?from=2026-03-14&to=2026-03-14&groupIds=${odd.id}`)).body.meetings[0];
    await g.put(`/api/groups/${odd.id}/meetings/${m.id}/attendance`, { present: [eve.id, bob.id], visitors: [] });
    expect(await saturdayNow()).toMatchObject({ present: [bob.id, eve.id].sort((a, b) => a - b), visitors: [] });
    expect((await g.delete(`/api/contacts/${eve.id}`)).status).toBe(200);
    expect((await saturdayNow()).present).toEqual([bob.id]);
    expect((await g.patch(`/api/groups/${odd.id}`, { name: 'Saturday "Odd" group' })).status).toBe(200);
    expect((await saturdayNow()).groupName).toBe('Saturday "Odd" group');
    expect(all.find((x: { date: string }) => x.date === '2026-03-15')).toMatchObject({ present: [], recorded: false });
    expect(all.map((x: { date: string }) => x.date)).toEqual([...all.map((x: { date: string }) => x.date)].sort());
    const none = await g.get('/api/groups/attendance?from=2027-01-01&to=2027-01-31');
    expect(none.body).toEqual({ meetings: [], nextCursor: null });
    expect((await new HttpClient(app.url).get(`/api/groups/attendance?${query}`)).status).toBe(401);
    expect((await g.delete(`/api/groups/${odd.id}`)).status).toBe(200);
    const left = await app.db
      .selectFrom('groupMeetingRows')
      .select('meetingId')
      .where('groupId', '=', odd.id)
      .execute();
    expect(left).toEqual([]);
  });

  it("answers 404 for another church's group, member and meeting", async () => {
    const h = hope.client;
    const meeting = (await g.get(`/api/groups/${tuesday.id}/meetings`)).body[0];
    expect((await h.get(`/api/groups/${tuesday.id}`)).status).toBe(404);
    expect((await h.patch(`/api/groups/${tuesday.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await h.get(`/api/groups/${tuesday.id}/members`)).status).toBe(404);
    expect((await h.delete(`/api/groups/${tuesday.id}/members/${ann.id}`)).status).toBe(404);
    expect((await h.get(`/api/groups/${tuesday.id}/meetings`)).status).toBe(404);
    expect((await h.put(`/api/groups/${tuesday.id}/meetings/${meeting.id}/attendance`, { present: [] })).status).toBe(
      404,
    );
    expect((await h.get('/api/groups/attendance?from=2026-01-01&to=2026-12-31')).body.meetings).toEqual([]);
    const hopes = (await h.post('/api/groups', { name: 'Hope group', frequency: 'by_arrangement' })).body;
    expect((await h.post(`/api/groups/${hopes.id}/members`, { contactIds: [ann.id] })).status).toBe(404);
    expect((await h.delete(`/api/groups/${tuesday.id}`)).status).toBe(404);
    expect((await g.delete(`/api/groups/${youth.id}`)).status).toBe(200);
    expect((await g.get(`/api/groups/${youth.id}`)).status).toBe(404);
  });
});
