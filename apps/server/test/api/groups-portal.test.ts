import { describe, expect, it } from 'vitest';
import { addContact, registerChurch, startTestApp } from '../helpers/test-app.js';
import { giveHandle, signInToPortal, type Member } from '../helpers/portal.js';

// Groups in the members' portal: 'My groups' pages and forms, and the JSON routes a leader's phone
// uses for attendance. A leader reaches only the groups they lead; every other group id is 404; the
// same attendance sent twice is recorded once.
const app = await startTestApp();
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
const handle = await giveHandle(app.db, grace.user.id, 'grace-groups');
const base = `/c/${handle}/me`;
const api = `${base}/api/groups`;
const g = grace.client;

const lydia = await addContact(g, { firstName: 'Lydia', lastName: 'Dye', email: 'lydia.gp@example.org' });
const tom = await addContact(g, {
  firstName: 'Tom',
  lastName: 'Reed',
  email: 'tom.gp@example.org',
  phone: '+15550111',
});
const ann = await addContact(g, { firstName: 'Ann', lastName: 'Lee', email: 'ann.gp@example.org' });
const paul = await addContact(g, { firstName: 'Paul', lastName: 'Tent', email: 'paul.gp@example.org' });
const mine = (
  await g.post('/api/groups', {
    name: 'Tuesday Night',
    frequency: 'weekly',
    weekday: 2,
    time: '19:00',
    joinMode: 'request',
    leaderContactIds: [lydia.id],
  })
).body;
const other = (
  await g.post('/api/groups', { name: 'Men at Dawn', frequency: 'by_arrangement', leaderContactIds: [paul.id] })
).body;
await g.post(`/api/groups/${mine.id}/members`, { contactIds: [tom.id, ann.id] });
await g.post(`/api/groups/${other.id}/members`, { contactIds: [ann.id] });
const hopeGroup = (await hope.client.post('/api/groups', { name: 'Hope Group', frequency: 'by_arrangement' })).body;

/** A join request through the public finder's form. */
async function ask(groupId: number, name: string, email: string) {
  const res = await fetch(`${app.url}/c/${handle}/groups/${groupId}/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name, email }).toString(),
    redirect: 'manual',
  });
  expect(res.status).toBeLessThan(400);
  return app.db
    .selectFrom('groupJoinRequests')
    .select('id')
    .where('email', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
}
const mineRequest = await ask(mine.id, 'Nia Newcomer', 'nia.gp@example.org');
const otherRequest = await ask(other.id, 'Ozzie Other', 'ozzie.gp@example.org');

const leader = await signInToPortal(app.db, app.url, base, 'lydia.gp@example.org');
const csrf = await leader.csrf(`${base}/groups`);

/** A JSON call of the portal's phone script: the cookie, the page's origin, JSON body. */
async function callJson(m: Member, method: string, path: string, body?: Record<string, unknown>) {
  const res = await fetch(app.url + path, {
    method,
    headers: {
      cookie: [...m.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      origin: app.url,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { message?: string } };
}
const attendanceRows = async (groupId: number) =>
  app.db
    .selectFrom('groupAttendance as a')
    .innerJoin('groupMeetings as m', 'm.id', 'a.meetingId')
    .select('a.contactId')
    .where('m.groupId', '=', groupId)
    .execute();

const attendanceEvents = () =>
  app.db
    .selectFrom('events')
    .select('id')
    .where('type', '=', 'group.attendance_recorded')
    .where('userId', '=', grace.user.id)
    .execute();

describe("members portal: 'My groups'", () => {
  it('lists the member’s groups with the next meeting; a leader’s page has the roster with phone and email', async () => {
    const list = await leader.get(`${base}/groups`);
    expect(list.status).toBe(200);
    expect(list.text).toContain('aria-current="page">My groups</a>');
    expect(list.text).toContain('Tuesday Night');
    expect(list.text).toContain('You lead this group');
    expect(list.text).toMatch(/Next meeting:<\/strong> Tuesday, \w+ \d+, \d{4} at 7:00 PM/);
    expect(list.text).not.toContain('Men at Dawn');
    const page = await leader.get(`${base}/groups/${mine.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Tuesday Night</h1>');
    expect(page.text).toContain('href="tel:+15550111"');
    expect(page.text).toContain('mailto:ann.gp@example.org');
    expect(page.text).toContain('Nia Newcomer');
    expect(page.text).not.toContain('Ozzie Other');
    expect(page.text).toContain("Take today's attendance");
    const json = await callJson(leader, 'GET', `${api}/${mine.id}/roster`);
    expect(json.status).toBe(200);
    // A member who leads nothing sees their groups but no roster.
    const annMember = await signInToPortal(app.db, app.url, base, 'ann.gp@example.org');
    const annList = await annMember.get(`${base}/groups`);
    expect(annList.text).toContain('Men at Dawn');
    expect(annList.text).not.toContain('Roster and requests');
    expect((await annMember.get(`${base}/groups/${mine.id}`)).status).toBe(404);
    expect((await callJson(annMember, 'GET', `${api}/${mine.id}/roster`)).status).toBe(404);
  });

  it("answers 404 to a leader reading another group's roster, and to every group route with another group's ids", async () => {
    expect((await callJson(leader, 'GET', `${api}/${other.id}/roster`)).status).toBe(404);
    for (const id of [other.id, hopeGroup.id, 999_999]) {
      expect((await callJson(leader, 'GET', `${api}/${id}/roster`)).status, `roster ${id}`).toBe(404);
      expect((await callJson(leader, 'GET', `${api}/${id}/requests`)).status, `requests ${id}`).toBe(404);
      const decide = await callJson(leader, 'POST', `${api}/${id}/requests/${otherRequest.id}`, {
        csrf,
        decision: 'approve',
      });
      expect(decide.status, `decide ${id}`).toBe(404);
      const attend = await callJson(leader, 'POST', `${api}/${id}/attendance`, { csrf, present: [], visitors: [] });
      expect(attend.status, `attendance ${id}`).toBe(404);
      expect((await callJson(leader, 'POST', `${api}/${id}/leave`, { csrf })).status, `leave ${id}`).toBe(404);
      expect((await leader.get(`${base}/groups/${id}`)).status).toBe(404);
      expect((await leader.get(`${base}/groups/${id}/attendance`)).status).toBe(404);
      for (const path of [`${id}/attendance`, `${id}/leave`, `${id}/requests/${otherRequest.id}`])
        expect((await leader.post(`${base}/groups/${path}`, { csrf, decision: 'approve' })).status, path).toBe(404);
    }
    // Their own group with another group's request: 404, and the request is still pending.
    const crossed = await callJson(leader, 'POST', `${api}/${mine.id}/requests/${otherRequest.id}`, {
      csrf,
      decision: 'approve',
    });
    expect(crossed.status).toBe(404);
    const still = await app.db
      .selectFrom('groupJoinRequests')
      .select('status')
      .where('id', '=', otherRequest.id)
      .executeTakeFirstOrThrow();
    expect(still.status).toBe('pending');
    expect(await attendanceRows(other.id)).toEqual([]);
  });

  it('records the same attendance sent twice once (one event), and a form post with its key once too', async () => {
    const body = {
      csrf,
      date: '2026-11-24',
      present: [tom.id, lydia.id],
      visitors: ['Vera'],
      clientKey: 'phone-key-0001',
    };
    const first = await callJson(leader, 'POST', `${api}/${mine.id}/attendance`, body);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ applied: true, recorded: true, visitors: ['Vera'], date: '2026-11-24' });
    const again = await callJson(leader, 'POST', `${api}/${mine.id}/attendance`, body);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ applied: false, id: first.body.id });
    expect((await attendanceRows(mine.id)).map((r) => r.contactId).sort()).toEqual([tom.id, lydia.id].sort());
    expect(await attendanceEvents()).toHaveLength(1);
    const meetings = await app.db.selectFrom('groupMeetings').select('id').where('groupId', '=', mine.id).execute();
    expect(meetings).toHaveLength(1);

    // The form without script: its key came with the page; posted twice, counted once.
    const form = await leader.get(`${base}/groups/${mine.id}/attendance?date=2026-11-17`);
    expect(form.text).toContain('Everyone is ticked');
    expect(form.text).toMatch(new RegExp(`name="present" value="${ann.id}" checked`));
    const key = /name="clientKey" value="([^"]+)"/.exec(form.text)![1]!;
    const fields = { csrf, date: '2026-11-17', present: [String(ann.id)], visitor: ['', 'Walt'], clientKey: key };
    const posted = await leader.post(`${base}/groups/${mine.id}/attendance`, fields);
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe(`${base}/groups/${mine.id}?done=attendance`);
    expect((await leader.post(`${base}/groups/${mine.id}/attendance`, fields)).status).toBe(303);
    expect(await attendanceEvents()).toHaveLength(2);
    const taken = await leader.get(`${base}/groups/${mine.id}/attendance?date=2026-11-17`);
    expect(taken.text).toContain('Attendance was taken for this meeting');
    expect(taken.text).toContain('value="Walt"');
    expect(taken.text).not.toMatch(new RegExp(`name="present" value="${tom.id}" checked`));
  });

  it('answers bad attendance with a worded error, and refuses a write without the form token', async () => {
    const bad = await callJson(leader, 'POST', `${api}/${mine.id}/attendance`, { csrf, date: '2026-13-40' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Date must be a date as YYYY-MM-DD');
    const stranger = await callJson(leader, 'POST', `${api}/${mine.id}/attendance`, { csrf, present: [paul.id] });
    expect(stranger.status).toBe(400);
    const page = await leader.post(`${base}/groups/${mine.id}/attendance`, { csrf, present: [String(paul.id)] });
    expect(page.status).toBe(400);
    expect(page.text).toContain('class="err" role="alert"');
    expect((await callJson(leader, 'POST', `${api}/${mine.id}/attendance`, { present: [] })).status).toBe(403);
    const signedOut = await fetch(`${app.url}${api}`);
    expect(signedOut.status).toBe(401);
  });

  it('approves a join request from the leader’s page; a member leaves a group', async () => {
    const approved = await leader.post(`${base}/groups/${mine.id}/requests/${mineRequest.id}`, {
      csrf,
      decision: 'approve',
    });
    expect(approved.status).toBe(303);
    const page = await leader.get(approved.headers.get('location')!);
    expect(page.text).toContain('Approved: they are in the group and have been told.');
    expect(page.text).toContain('Nia Newcomer');
    expect(page.text).toContain('Nobody is waiting.');
    const tomMember = await signInToPortal(app.db, app.url, base, 'tom.gp@example.org');
    const tomCsrf = await tomMember.csrf(`${base}/groups`);
    const left = await tomMember.post(`${base}/groups/${mine.id}/leave`, { csrf: tomCsrf });
    expect(left.status).toBe(303);
    const after = await tomMember.get(left.headers.get('location')!);
    expect(after.text).toContain('You have left the group.');
    expect(after.text).toContain('You are not in a group yet.');
    expect(after.text).toContain(`href="/c/${handle}/groups"`);
  });
});
