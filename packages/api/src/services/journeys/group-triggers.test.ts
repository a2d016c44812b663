import { describe, expect, it } from 'vitest';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import { recordingDeliveryDeps } from '../delivery/test-deps.js';
import { JOURNEY_STARTERS, journeyFieldsSchema, type JourneyFieldsInput } from '../../schemas/journeys.js';
import { activateJourney, createJourney, getJourney } from './definitions.js';
import { runDueEnrollments } from './runner.js';
import { deliverJourney } from './channel.js';
import { processJourneyTriggers } from './triggers.js';
import { listTasks } from './tasks.js';
import { createGroup } from '../groups/groups.js';
import { createGroupSchema } from '../../schemas/groups.js';
import { addGroupMembers } from '../groups/members.js';
import { createMeeting, recordAttendance } from '../groups/meetings.js';
import { askToJoin } from '../groups/join.js';
import { eventsSettled } from '../events/log.js';

// The groups' journey triggers on real PostgreSQL with a clock the test holds: joining a group,
// asking to join, and missing N meetings in a row (N chosen), and the ready journey that gives the
// group's leader a task to call.

const { db } = await freshDatabase();
const register = (name: string) =>
  registerUser(db, {
    username: name,
    password: 'secret12',
    churchName: name,
    email: `${name}@example.org`,
    timeZone: 'America/New_York',
  });
const church = await register('grace');
const other = await register('other');
await db.updateTable('users').set({ emailVerifiedAt: new Date() }).execute();

const { jobs, deps } = recordingDeliveryDeps(db);

let seq = 0;
async function contact(firstName: string) {
  seq++;
  return db
    .insertInto('contacts')
    .values({ userId: church.id, firstName, lastName: 'Lopez', email: `${firstName.toLowerCase()}${seq}@example.org` })
    .returning(['id', 'email'])
    .executeTakeFirstOrThrow();
}
async function active(f: JourneyFieldsInput) {
  const j = await createJourney(db, church.id, journeyFieldsSchema.parse(f));
  return activateJourney(db, church.id, { id: j.id });
}
// 2026-12-01 15:00 UTC = 10:00 in New York.
const T0 = new Date('2026-12-01T15:00:00Z');
let clock = T0.getTime();
/** Triggers, due steps and the sends, a minute later each time. */
async function tick() {
  clock += 60_000;
  const at = new Date(clock);
  // Events written just before are read once they settle (events/log.ts).
  await eventsSettled(db);
  await processJourneyTriggers(db, at);
  const r = await runDueEnrollments(db, { now: at });
  for (const id of r.journeysToDeliver) await deliverJourney(deps, id);
}
const entered = async (journeyId: number) =>
  (
    await db
      .selectFrom('journeyEnrollments')
      .select('contactId')
      .where('journeyId', '=', journeyId)
      .orderBy('id')
      .execute()
  ).map((e) => e.contactId);
const step = (name: string) => ({
  id: 'tag',
  kind: 'add_tag' as const,
  tag: name,
  next: null,
});
/** Members joined long before the meetings (joining sets today's date). */
const joinedEarly = (groupId: number) =>
  db.updateTable('groupMembers').set({ joinedOn: '2026-01-01' }).where('groupId', '=', groupId).execute();

describe('journeys started by groups', () => {
  it('enters people who join a chosen group, and people who ask to join any group', async () => {
    const a = await createGroup(db, church.id, createGroupSchema.parse({ name: 'Alpha', frequency: 'by_arrangement' }));
    const b = await createGroup(
      db,
      church.id,
      createGroupSchema.parse({ name: 'Beta', frequency: 'by_arrangement', joinMode: 'request' }),
    );
    const joined = await active({
      name: 'Joined Alpha',
      trigger: { kind: 'group_joined', groupId: a.id },
      steps: [step('alpha')],
    });
    const asked = await active({ name: 'Asked', trigger: { kind: 'group_join_requested' }, steps: [step('asked')] });
    expect((await getJourney(db, church.id, { id: joined.id })).triggerText).toBe('When someone joins *Alpha*');
    const ann = await contact('Ann');
    const bob = await contact('Bob');
    await addGroupMembers(db, church.id, { id: a.id, contactIds: [ann.id], role: 'member' });
    await addGroupMembers(db, church.id, { id: b.id, contactIds: [bob.id], role: 'member' });
    const r = await askToJoin(
      { db, jobs },
      {
        tenantId: church.id,
        churchName: 'Grace',
        groupId: b.id,
        form: { name: 'Cy New', email: 'cy.new@example.org' },
      },
    );
    expect(r.outcome).toBe('requested');
    await tick();
    expect(await entered(joined.id)).toEqual([ann.id]);
    const cy = await db
      .selectFrom('contacts')
      .select('id')
      .where('email', '=', 'cy.new@example.org')
      .executeTakeFirstOrThrow();
    expect(await entered(asked.id)).toEqual([cy.id]);
    // Each event is read once.
    await tick();
    expect(await entered(joined.id)).toEqual([ann.id]);
    expect(await entered(asked.id)).toEqual([cy.id]);
    // Another church's group cannot be chosen.
    await expect(
      createJourney(
        db,
        other.id,
        journeyFieldsSchema.parse({ name: 'X', trigger: { kind: 'group_joined', groupId: a.id }, steps: [] }),
      ),
    ).rejects.toThrow('Group not found');
  });

  it("'Missed three weeks': the leader gets a task to call at the third missed meeting, once; N is chosen", async () => {
    const lydia = await contact('Lydia');
    const ann = await contact('Ann');
    const bob = await contact('Bob');
    const cat = await contact('Cat');
    const g = await createGroup(
      db,
      church.id,
      createGroupSchema.parse({
        name: 'Tuesday Night',
        frequency: 'weekly',
        weekday: 2,
        leaderContactIds: [lydia.id],
      }),
    );
    await addGroupMembers(db, church.id, { id: g.id, contactIds: [ann.id, bob.id, cat.id], role: 'member' });
    await joinedEarly(g.id);
    const starter = JOURNEY_STARTERS.find((s) => s.key === 'missed-group')!;
    const three = await active(starter.fields);
    expect((await getJourney(db, church.id, { id: three.id })).summary).toContain(
      'ask their group’s leader to *Call {{firstName}} {{lastName}}*',
    );
    const two = await active({
      name: 'Missed two',
      trigger: { kind: 'group_missed', groupId: g.id, count: 2 },
      entryRule: { kind: 'every_time' },
      steps: [step('missed-two')],
    });
    expect((await getJourney(db, church.id, { id: two.id })).triggerText).toBe(
      'When a member misses 2 meetings of *Tuesday Night* in a row',
    );
    const meet = async (date: string, present: number[]) => {
      const m = await createMeeting(db, church.id, { id: g.id, date });
      await recordAttendance(db, church.id, { id: g.id, meetingId: m.id, present, visitors: [] });
      await tick();
      return m;
    };
    await meet('2026-10-06', [lydia.id, ann.id, bob.id, cat.id]);
    await meet('2026-10-13', [lydia.id, ann.id]);
    expect(await entered(three.id)).toEqual([]);
    expect(await entered(two.id)).toEqual([]);
    await meet('2026-10-20', [lydia.id, ann.id]);
    // Two missed in a row: Bob and Cat.
    expect(await entered(two.id)).toEqual([bob.id, cat.id]);
    expect(await entered(three.id)).toEqual([]);
    const fourth = await meet('2026-10-27', [lydia.id, ann.id, cat.id]);
    // Three in a row: Bob only; the two-meeting journey does not take him again at three.
    expect(await entered(three.id)).toEqual([bob.id]);
    expect(await entered(two.id)).toEqual([bob.id, cat.id]);
    const { tasks } = await listTasks(db, church.id, { limit: 50 });
    const task = tasks.find((t) => t.contact?.id === bob.id)!;
    expect(task).toMatchObject({ title: 'Call Bob Lopez', dueOn: '2026-12-03', assignee: { name: 'Lydia Lopez' } });
    expect(task.notes).toContain('Group: Tuesday Night');
    const mail = await db
      .selectFrom('outboxMessages')
      .select('subject')
      .where('toAddress', '=', lydia.email!)
      .execute();
    expect(mail).toHaveLength(1);
    // The same attendance recorded again, and a fourth missed meeting: nobody enters again.
    await recordAttendance(db, church.id, {
      id: g.id,
      meetingId: fourth.id,
      present: [lydia.id, ann.id, cat.id],
      visitors: [],
    });
    await tick();
    await meet('2026-11-03', [lydia.id, ann.id, cat.id]);
    expect(await entered(three.id)).toEqual([bob.id]);
    // Back, then three missed again: a new run, a new task.
    await meet('2026-11-10', [lydia.id, bob.id]);
    await meet('2026-11-17', [lydia.id]);
    await meet('2026-11-24', [lydia.id]);
    expect(await entered(three.id)).toEqual([bob.id, ann.id, cat.id]);
    await meet('2026-12-01', [lydia.id]);
    expect(await entered(three.id)).toEqual([bob.id, ann.id, cat.id, bob.id]);
  });

  it('gives the task to the assignee when the group has no leader with an email', async () => {
    const g = await createGroup(
      db,
      church.id,
      createGroupSchema.parse({ name: 'Leaderless', frequency: 'by_arrangement' }),
    );
    const dee = await contact('Dee');
    await addGroupMembers(db, church.id, { id: g.id, contactIds: [dee.id], role: 'member' });
    await joinedEarly(g.id);
    const j = await active({
      name: 'Missed one',
      trigger: { kind: 'group_missed', groupId: g.id, count: 1 },
      steps: [{ id: 'call', kind: 'task', title: 'Call {{firstName}}', toGroupLeader: true, next: null }],
    });
    const m = await createMeeting(db, church.id, { id: g.id, date: '2026-10-01' });
    await recordAttendance(db, church.id, { id: g.id, meetingId: m.id, present: [], visitors: [] });
    await tick();
    expect(await entered(j.id)).toEqual([dee.id]);
    const { tasks } = await listTasks(db, church.id, { limit: 50 });
    expect(tasks.find((t) => t.contact?.id === dee.id)).toMatchObject({
      title: 'Call Dee',
      assignee: { contactId: null, name: 'grace' },
    });
  });
});
