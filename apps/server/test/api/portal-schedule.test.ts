import { describe, expect, it } from 'vitest';
import { addContact, registerChurch, startTestApp } from '../helpers/test-app.js';
import { giveHandle, signInToPortal } from '../helpers/portal.js';

// 'My schedule' in the members' portal: a volunteer's upcoming assignments with
// Accept and Decline, and their blockout dates; nobody else's.
const app = await startTestApp();
const grace = await registerChurch(app.url, 'Grace Church');
const handle = await giveHandle(app.db, grace.user.id, 'grace-serve');
const base = `/c/${handle}/me`;
const g = grace.client;
const BASE = '/api/service-planner';

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const mariaContact = await addContact(g, { firstName: 'Maria', lastName: 'Lopez', email: 'maria.serve@example.org' });
const tomContact = await addContact(g, { firstName: 'Tom', lastName: 'Reed', email: 'tom.serve@example.org' });
const sound = (await g.post(`${BASE}/positions`, { name: 'Sound', category: 'Tech' })).body;
const maria = (await g.post(`${BASE}/members`, { contactId: mariaContact.id, positionIds: [sound.id] })).body;
const tom = (await g.post(`${BASE}/members`, { contactId: tomContact.id, positionIds: [sound.id] })).body;
const sunday = (
  await g.post(`${BASE}/plans`, { title: 'Morning Service', date: day(7), serviceTimes: ['09:00', '11:00'] })
).body;
const nextSunday = (await g.post(`${BASE}/plans`, { title: 'Evening Service', date: day(14), startTime: '18:30' }))
  .body;
const past = (await g.post(`${BASE}/plans`, { title: 'Old Service', date: day(-7) })).body;
const assign = async (planId: number, memberId: number, o: Record<string, unknown> = {}) =>
  (await g.post(`${BASE}/plans/${planId}/assignments`, { memberId, positionId: sound.id, ...o })).body;
const first = await assign(sunday.id, maria.id, { serviceTime: '09:00' });
const second = await assign(nextSunday.id, maria.id);
await assign(past.id, maria.id);
const toms = await assign(sunday.id, tom.id, { serviceTime: '11:00' });
const tomBlockout = (await g.post(`${BASE}/blockouts`, { memberId: tom.id, startsOn: day(20), endsOn: day(21) })).body
  .blockouts[0];

const member = await signInToPortal(app.db, app.url, base, 'maria.serve@example.org');
const csrf = await member.csrf(`${base}/schedule`);
const statusOf = async (id: number) =>
  (await app.db.selectFrom('servicePlanAssignments').select('status').where('id', '=', id).executeTakeFirstOrThrow())
    .status;

describe("members portal: 'My schedule'", () => {
  it("shows the volunteer's upcoming assignments (plan, date, time, position, status) and nobody else's", async () => {
    const page = await member.get(`${base}/schedule`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>My schedule</h1>');
    expect(page.text).toContain('aria-current="page">My schedule</a>');
    expect(page.text).toContain('Morning Service');
    expect(page.text).toContain('9:00 AM · Sound');
    expect(page.text).toContain('Evening Service');
    expect(page.text).toContain('6:30 PM · Sound');
    expect(page.text).not.toContain('Old Service');
    expect(page.text).not.toContain('11:00 AM');
    expect(page.text).toContain(`action="${base}/schedule/${first.id}/accept"`);
    expect(page.text).not.toContain(`/schedule/${toms.id}/`);
    // Someone who serves on no team is told so.
    await addContact(g, { firstName: 'Ann', email: 'ann.serve@example.org' });
    const ann = await signInToPortal(app.db, app.url, base, 'ann.serve@example.org');
    expect((await ann.get(`${base}/schedule`)).text).toContain('You are not on a serving team yet.');
  });

  it('accepts and declines through the request answer (with its event), and refuses another person’s assignment', async () => {
    const accepted = await member.post(`${base}/schedule/${first.id}/accept`, { csrf });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get('location')).toBe(`${base}/schedule?done=accepted`);
    expect(await statusOf(first.id)).toBe('confirmed');
    const declined = await member.post(`${base}/schedule/${second.id}/decline`, { csrf });
    expect(declined.status).toBe(303);
    expect(await statusOf(second.id)).toBe('declined');
    const events = await app.db
      .selectFrom('events')
      .select(['type', 'contactId'])
      .where('type', 'in', ['plan.accepted', 'plan.declined'])
      .orderBy('id')
      .execute();
    expect(events).toEqual([
      { type: 'plan.accepted', contactId: mariaContact.id },
      { type: 'plan.declined', contactId: mariaContact.id },
    ]);
    const page = await member.get(`${base}/schedule?done=accepted`);
    expect(page.text).toContain('Thank you. You have accepted.');
    // An accepted date can be offered to teammates.
    expect(page.text).toContain(`<a href="${base}/swaps">Swap a date</a>`);
    expect(page.text).toMatch(/Morning Service<\/strong> <span[^>]*>Accepted<\/span>/);
    expect(page.text).toMatch(/Evening Service<\/strong> <span[^>]*>Declined<\/span>/);
    // Tom's assignment: not found, and unchanged.
    expect((await member.post(`${base}/schedule/${toms.id}/accept`, { csrf })).status).toBe(404);
    expect(await statusOf(toms.id)).toBe('scheduled');
    // Without the form's token: refused.
    expect((await member.post(`${base}/schedule/${toms.id}/decline`, {})).status).toBe(403);
    expect((await member.post(`${base}/schedule/${first.id}/decline`, { csrf: 'x' })).status).toBe(403);
    expect(await statusOf(first.id)).toBe('confirmed');
  });

  it('adds blockout dates (a range with a reason, a recurring one), names a bad field, and removes them', async () => {
    const form = {
      csrf,
      memberId: String(maria.id),
      reason: '',
      repeat: 'none',
      nth: '1',
      weekday: '0',
      interval: '2',
    };
    const added = await member.post(`${base}/schedule/blockouts`, {
      ...form,
      startsOn: day(30),
      endsOn: day(37),
      reason: 'Holiday',
    });
    expect(added.status).toBe(303);
    expect(added.headers.get('location')).toBe(`${base}/schedule?done=blockout-added`);
    const recurring = await member.post(`${base}/schedule/blockouts`, {
      ...form,
      startsOn: day(1),
      endsOn: day(300),
      repeat: 'month',
      nth: '2',
      weekday: '0',
    });
    expect(recurring.status).toBe(303);
    const rows = await app.db
      .selectFrom('teamMemberBlockouts')
      .select(['id', 'startsOn', 'endsOn', 'reason', 'recurrence'])
      .where('teamMemberId', '=', maria.id)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.startsOn, r.endsOn, r.reason, r.recurrence])).toEqual([
      [day(30), day(37), 'Holiday', null],
      [day(1), day(300), null, { every: 'month', nth: 2, weekday: 0 }],
    ]);
    const page = await member.get(`${base}/schedule`);
    expect(page.text).toContain('Holiday');
    expect(page.text).toContain('Every 2nd Sunday of the month');

    const bad = await member.post(`${base}/schedule/blockouts`, { ...form, startsOn: day(10), endsOn: day(5) });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain(`id="m${maria.id}-endsOn-error">End date must be on or after the start date`);
    expect(bad.text).toContain(`value="${day(10)}"`);
    const noDate = await member.post(`${base}/schedule/blockouts`, { ...form, startsOn: '' });
    expect(noDate.status).toBe(400);
    expect(noDate.text).toContain('Start date must be a valid date');
    // Tom's member id, or Tom's blockout: not found.
    expect(
      (await member.post(`${base}/schedule/blockouts`, { ...form, memberId: String(tom.id), startsOn: day(3) })).status,
    ).toBe(404);
    expect((await member.post(`${base}/schedule/blockouts/${tomBlockout.id}/delete`, { csrf })).status).toBe(404);
    expect(
      await app.db.selectFrom('teamMemberBlockouts').select('id').where('id', '=', tomBlockout.id).executeTakeFirst(),
    ).toBeTruthy();

    const removed = await member.post(`${base}/schedule/blockouts/${rows[0]!.id}/delete`, { csrf });
    expect(removed.status).toBe(303);
    expect(removed.headers.get('location')).toBe(`${base}/schedule?done=blockout-removed`);
    const after = await member.get(`${base}/schedule?done=blockout-removed`);
    expect(after.text).toContain('The dates you are away are removed.');
    expect(after.text).not.toContain('Holiday');
    // Staff see the blockout the volunteer entered.
    const staff = (await g.get(`${BASE}/members/${maria.id}`)).body;
    expect(staff.blockouts.map((b: { recurrence: unknown }) => b.recurrence)).toEqual([
      { every: 'month', nth: 2, weekday: 0 },
    ]);
  });
});
