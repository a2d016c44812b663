import { describe, expect, it } from 'vitest';
import { sql } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { lockWaiters } from '@lampstand/db/test/lock-waiters';
import { registerUser } from '../auth/register-user.js';
import type { JobQueue } from '../../jobs.js';
import { createOutboxTransport } from '../../providers/email.js';
import { createSmsOutboxTransport } from '../../providers/sms.js';
import { defaultDeliveryConfig } from '../delivery/config.js';
import { addContactToList } from '../contacts/lists.js';
import { deleteContact } from '../contacts/contacts.js';
import { mergeContacts } from '../contacts/merge.js';
import { undoPeople } from '../imports/undo-people.js';
import { recordOpen } from '../email-campaigns/tracking.js';
import { journeyFieldsSchema, type JourneyFieldsInput } from '../../schemas/journeys.js';
import {
  ARCHIVED_EXIT_REASON,
  activateJourney,
  archiveJourney,
  createJourney,
  deleteJourney,
  getJourney,
  journeyActivationCheck,
  pauseJourney,
  updateJourney,
} from './definitions.js';
import { enrollInJourney, testJourney } from './enroll.js';
import { runDueEnrollments } from './runner.js';
import { deliverJourney } from './channel.js';
import { processJourneyTriggers, runBirthdayTriggers } from './triggers.js';
import { journeyStats, listEnrollmentRuns, listJourneyEnrollments } from './stats.js';
import { listConversationMessages } from '../conversations/conversations.js';
import { listTasks, updateTask } from './tasks.js';
import { eventsSettled } from '../events/log.js';

// Journeys on real PostgreSQL with a clock the test holds (`at`): triggers from the event log,
// each kind of step, branches both ways, quiet hours, exits, versions and entry rules.

const { db } = await freshDatabase();
const register = (name: string, timeZone = 'America/New_York') =>
  registerUser(db, { username: name, password: 'secret12', churchName: name, email: `${name}@example.org`, timeZone });
const church = await register('grace');
const other = await register('other');
// Verified: no daily limit.
await db.updateTable('users').set({ emailVerifiedAt: new Date() }).execute();

const jobs: JobQueue = { send: async () => 'id', cancel: async () => {} };
const deps = {
  db,
  jobs,
  email: createOutboxTransport(db),
  sms: createSmsOutboxTransport(db),
  config: {
    ...defaultDeliveryConfig,
    publicUrl: 'http://localhost',
    trackingSecret: 'test-secret',
    emailFrom: 'Lampstand <no-reply@localhost>',
    smsFromNumber: '+15005550006',
    // The real clock's time of day must not hold a text (quiet hours are tested with a clock of their own).
    smsQuietHours: false,
  },
};

let seq = 0;
async function contact(
  o: Partial<{ email: string | null; phone: string | null; tags: string[]; dob: string; tenant: number }> = {},
) {
  seq++;
  const phone = o.phone === undefined ? `+1555000${String(seq).padStart(4, '0')}` : o.phone;
  return db
    .insertInto('contacts')
    .values({
      userId: o.tenant ?? church.id,
      firstName: `Maria${seq}`,
      lastName: 'Lopez',
      email: o.email === undefined ? `maria${seq}@example.org` : o.email,
      phone,
      phoneE164: phone,
      tags: o.tags ?? [],
      dateOfBirth: o.dob ?? null,
    })
    .returning(['id', 'email', 'phoneE164'])
    .executeTakeFirstOrThrow();
}
async function list(name: string, tenant = church.id) {
  return db.insertInto('contactLists').values({ userId: tenant, name }).returning('id').executeTakeFirstOrThrow();
}
const fields = (f: JourneyFieldsInput) => journeyFieldsSchema.parse(f);
async function active(f: JourneyFieldsInput) {
  const j = await createJourney(db, church.id, fields(f));
  return activateJourney(db, church.id, { id: j.id });
}
/** Triggers, due steps and the sends, at `at`. */
async function tick(at: Date) {
  // Events written just before are read once they settle (events/log.ts).
  await eventsSettled(db);
  await processJourneyTriggers(db, at);
  const r = await runDueEnrollments(db, { now: at });
  for (const id of r.journeysToDeliver) await deliverJourney(deps, id);
  return r;
}
const enrollmentsOf = (journeyId: number) =>
  db.selectFrom('journeyEnrollments').selectAll().where('journeyId', '=', journeyId).orderBy('id').execute();
const outbox = (to: string) =>
  db.selectFrom('outboxMessages').selectAll().where('toAddress', '=', to).orderBy('id').execute();
const eventTypes = async (contactId: number) =>
  (await db.selectFrom('events').select('type').where('contactId', '=', contactId).orderBy('id').execute()).map(
    (e) => e.type,
  );

// 2026-12-01 15:00 UTC = 10:00 in New York (a Tuesday).
const T0 = new Date('2026-12-01T15:00:00Z');
const later = (ms: number) => new Date(T0.getTime() + ms);

/** What the step did for a contact's enrolment (its outcome and detail). */
const stepRun = (contactId: number, stepId: string) =>
  db
    .selectFrom('journeyStepRuns as r')
    .innerJoin('journeyEnrollments as e', 'e.id', 'r.enrollmentId')
    .select(['r.outcome', 'r.detail'])
    .where('e.contactId', '=', contactId)
    .where('r.stepId', '=', stepId)
    .executeTakeFirstOrThrow();
const DAY = 86_400_000;

describe('a journey from a list trigger', () => {
  it('enrols on list.member_added, sends the email through the engine, waits, then texts', async () => {
    const l = await list('Newcomers');
    const j = await active({
      name: 'Welcome',
      trigger: { kind: 'list_added', listId: l.id },
      steps: [
        {
          id: 'hello',
          kind: 'email',
          name: 'Welcome',
          subject: 'Hi {{firstName}}',
          content: '<p>Welcome {{firstName}}</p>',
          next: 'w',
        },
        { id: 'w', kind: 'wait', wait: { mode: 'duration', amount: 2, unit: 'days' }, next: 'txt' },
        { id: 'txt', kind: 'sms', name: 'Day 2 text', body: 'Hello {{firstName}}', next: null },
      ],
    });
    const c = await contact();
    await addContactToList(db, church.id, { listId: l.id, contactId: c.id });
    await tick(T0);
    const [e] = await enrollmentsOf(j.id);
    expect(e).toMatchObject({ status: 'active', currentStepId: 'w' });
    const mails = await outbox(c.email!);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Hi Maria${seq}`);
    expect(mails[0]!.html).toContain('Unsubscribe');
    expect(mails[0]!.html).toContain('Manage your subscriptions');
    // Nothing more before the wait is over.
    await tick(later(DAY));
    expect(await outbox(c.phoneE164!)).toHaveLength(0);
    await tick(later(2 * DAY + 1000));
    expect(await outbox(c.phoneE164!)).toHaveLength(1);
    const [done] = await enrollmentsOf(j.id);
    expect(done).toMatchObject({ status: 'completed' });
    expect(await eventTypes(c.id)).toEqual(
      expect.arrayContaining([
        'list.member_added',
        'journey.entered',
        'journey.step_done',
        'email.sent',
        'sms.sent',
        'journey.completed',
      ]),
    );
    const stats = await journeyStats(db, church.id, { id: j.id });
    expect(stats.counts.completed).toBe(1);
    expect(stats.steps.find((s) => s.stepId === 'hello')).toMatchObject({ done: 1, sent: 1 });
  });

  it('holds a text due in quiet hours until 8:00 in the church time zone', async () => {
    const j = await active({
      name: 'Late text',
      trigger: { kind: 'manual' },
      steps: [{ id: 'txt', kind: 'sms', name: 'Night text', body: 'Hi {{firstName}}', next: null }],
    });
    const c = await contact();
    // 23:30 in New York.
    const night = new Date('2026-12-02T04:30:00Z');
    await enrollInJourney(db, church.id, { id: j.id, contactIds: [c.id] }, night);
    await tick(night);
    expect(await outbox(c.phoneE164!)).toHaveLength(0);
    const [e] = await enrollmentsOf(j.id);
    expect(e!.nextRunAt!.toISOString()).toBe('2026-12-02T13:00:00.000Z');
    // The people table says why the person waits, and until when (8:00 in New York).
    const listed = await listJourneyEnrollments(db, church.id, { id: j.id, limit: 10 }, night);
    expect(listed.enrollments[0]!.waiting).toEqual({ reason: 'quiet_hours', until: e!.nextRunAt });
    await tick(new Date('2026-12-02T12:59:00Z'));
    expect(await outbox(c.phoneE164!)).toHaveLength(0);
    await tick(new Date('2026-12-02T13:00:00Z'));
    expect(await outbox(c.phoneE164!)).toHaveLength(1);
    const sent = await listJourneyEnrollments(db, church.id, { id: j.id, limit: 10 }, new Date('2026-12-02T13:00:00Z'));
    expect(sent.enrollments[0]).toMatchObject({ status: 'completed', waiting: null });
    // The text shows in the person's conversation thread, as sent and named by its journey.
    const thread = await db
      .insertInto('conversations')
      .values({ userId: church.id, phoneE164: c.phoneE164!, contactId: c.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { messages } = await listConversationMessages(db, church.id, { id: thread.id });
    expect(messages).toEqual([
      expect.objectContaining({
        kind: 'journey',
        direction: 'outbound',
        journeyName: 'Late text',
        body: expect.stringMatching(/^Hi Maria\d+$/),
      }),
    ]);
  });

  it('names a wait step and the daily limit as what a person waits for', async () => {
    const j = await active({
      name: 'Slow',
      trigger: { kind: 'manual' },
      steps: [{ id: 'w', kind: 'wait', wait: { mode: 'duration', amount: 2, unit: 'days' }, next: null }],
    });
    const c = await contact();
    await enrollInJourney(db, church.id, { id: j.id, contactIds: [c.id] }, T0);
    await tick(T0);
    const listed = await listJourneyEnrollments(db, church.id, { id: j.id, limit: 10 }, T0);
    expect(listed.enrollments[0]!.waiting).toEqual({ reason: 'wait', until: later(2 * DAY) });
  });

  it('waits until a weekday and time in the church time zone, then goes on', async () => {
    const j = await active({
      name: 'Sunday',
      trigger: { kind: 'manual' },
      steps: [
        { id: 'sun', kind: 'wait', wait: { mode: 'until', weekday: 0, time: '09:30' }, next: 'tag' },
        { id: 'tag', kind: 'add_tag', tag: 'sunday', next: null },
      ],
    });
    const c = await contact();
    // Tuesday 10:00 in New York → Sunday 6 December 09:30 there (14:30 UTC).
    await enrollInJourney(db, church.id, { id: j.id, contactIds: [c.id] }, T0);
    await tick(T0);
    const [e] = await enrollmentsOf(j.id);
    expect(e!.waitUntil!.toISOString()).toBe('2026-12-06T14:30:00.000Z');
    await tick(new Date('2026-12-06T14:29:00Z'));
    expect(
      (await db.selectFrom('contacts').select('tags').where('id', '=', c.id).executeTakeFirstOrThrow()).tags,
    ).toEqual([]);
    await tick(new Date('2026-12-06T14:30:00Z'));
    expect(
      (await db.selectFrom('contacts').select('tags').where('id', '=', c.id).executeTakeFirstOrThrow()).tags,
    ).toEqual(['sunday']);
    expect((await enrollmentsOf(j.id))[0]!.status).toBe('completed');
  });
});

describe('steps', () => {
  it('branches both ways, tags, adds to a list, makes a task and tells staff', async () => {
    const l = await list('Guests');
    const staff = await contact();
    await db
      .updateTable('contacts')
      .set({ metadata: JSON.stringify({ isServiceStaff: true }), firstName: 'John', lastName: 'Pastor' })
      .where('id', '=', staff.id)
      .execute();
    const j = await active({
      name: 'Branches',
      trigger: { kind: 'manual' },
      steps: [
        { id: 'b', kind: 'branch', condition: { kind: 'has_tag', tag: 'vip' }, yes: 'tag', no: 'add' },
        { id: 'tag', kind: 'add_tag', tag: 'welcomed', next: 'task' },
        { id: 'add', kind: 'add_to_list', listId: l.id, next: 'task' },
        {
          id: 'task',
          kind: 'task',
          title: 'Call {{firstName}}',
          assigneeContactId: staff.id,
          dueInDays: 2,
          next: 'tell',
        },
        { id: 'tell', kind: 'notify', subject: 'About {{firstName}}', message: 'Say hi', contactIds: [], next: null },
      ],
    });
    const vip = await contact({ tags: ['vip'] });
    const plain = await contact();
    await enrollInJourney(db, church.id, { id: j.id, contactIds: [vip.id, plain.id] }, T0);
    await tick(T0);
    const tags = await db.selectFrom('contacts').select(['id', 'tags']).where('id', 'in', [vip.id, plain.id]).execute();
    expect(tags.find((t) => t.id === vip.id)!.tags).toEqual(['vip', 'welcomed']);
    expect(tags.find((t) => t.id === plain.id)!.tags).toEqual([]);
    const members = await db.selectFrom('contactsInLists').select('contactId').where('listId', '=', l.id).execute();
    expect(members.map((m) => m.contactId)).toEqual([plain.id]);
    const tasks = await listTasks(db, church.id, { limit: 50 });
    expect(tasks.tasks).toHaveLength(2);
    expect(tasks.tasks[0]).toMatchObject({ status: 'open', dueOn: '2026-12-03', assignee: { name: 'John Pastor' } });
    // The assignee was emailed about each task; the account got both notices.
    expect(await outbox(staff.email!)).toHaveLength(2);
    expect((await outbox('grace@example.org')).filter((m) => m.subject?.startsWith('About'))).toHaveLength(2);
    const runs = await db
      .selectFrom('journeyStepRuns as r')
      .innerJoin('journeyEnrollments as e', 'e.id', 'r.enrollmentId')
      .select(['e.contactId', 'r.stepId', 'r.outcome'])
      .where('e.journeyId', '=', j.id)
      .where('r.stepId', '=', 'b')
      .execute();
    expect(runs.find((r) => r.contactId === vip.id)!.outcome).toBe('yes');
    expect(runs.find((r) => r.contactId === plain.id)!.outcome).toBe('no');
    // Done: a task.done event in the person's Activity.
    const done = await updateTask(db, church.id, { id: tasks.tasks[0]!.id, status: 'done' });
    expect(done.status).toBe('done');
    expect(await eventTypes(tasks.tasks[0]!.contact!.id)).toEqual(
      expect.arrayContaining(['task.assigned', 'task.done']),
    );
    await expect(updateTask(db, other.id, { id: tasks.tasks[0]!.id, status: 'open' })).rejects.toThrow(
      'Task not found',
    );
  });

  it('branches on an opened email, and skips an email step for an unsubscribed person while going on', async () => {
    const j = await active({
      name: 'Opened?',
      trigger: { kind: 'manual' },
      steps: [
        { id: 'm', kind: 'email', name: 'First', subject: 'First', content: '<p>x</p>', next: 'w' },
        { id: 'w', kind: 'wait', wait: { mode: 'duration', amount: 1, unit: 'hours' }, next: 'b' },
        { id: 'b', kind: 'branch', condition: { kind: 'opened_previous_email' }, yes: 'y', no: 'n' },
        { id: 'y', kind: 'add_tag', tag: 'opened', next: null },
        { id: 'n', kind: 'add_tag', tag: 'not-opened', next: null },
      ],
    });
    const opener = await contact();
    const ignorer = await contact();
    const unsub = await contact();
    await db.updateTable('contacts').set({ emailConsent: 'unsubscribed' }).where('id', '=', unsub.id).execute();
    await enrollInJourney(db, church.id, { id: j.id, contactIds: [opener.id, ignorer.id, unsub.id] }, T0);
    await tick(T0);
    const d = await db.selectFrom('deliveries').select(['token', 'contactId']).where('journeyId', '=', j.id).execute();
    expect(d.map((x) => x.contactId).sort()).toEqual([opener.id, ignorer.id].sort());
    await recordOpen(db, d.find((x) => x.contactId === opener.id)!.token);
    await tick(later(3_600_000 + 1));
    const tags = new Map(
      (
        await db
          .selectFrom('contacts')
          .select(['id', 'tags'])
          .where('id', 'in', [opener.id, ignorer.id, unsub.id])
          .execute()
      ).map((r) => [r.id, r.tags]),
    );
    expect(tags.get(opener.id)).toEqual(['opened']);
    expect(tags.get(ignorer.id)).toEqual(['not-opened']);
    expect(tags.get(unsub.id)).toEqual(['not-opened']);
    const skipped = await stepRun(unsub.id, 'm');
    expect(skipped).toEqual({ outcome: 'skipped', detail: 'Unsubscribed from email' });

    // A suppressed address (bounced or complained; any case) is skipped too.
    const bounced = await contact({ email: 'Bounced@Example.org' });
    await db
      .insertInto('emailSuppressions')
      .values({ userId: church.id, email: 'bounced@example.org', reason: 'hard_bounce', detail: '5.1.1' })
      .execute();
    // Another contact with the unsubscribed person's address (any case) gets no email either; one
    // with a fresh address in the same transaction does.
    const twin = await contact({ email: unsub.email!.toUpperCase() });
    const fresh = await contact();
    await enrollInJourney(
      db,
      church.id,
      { id: j.id, contactIds: [bounced.id, twin.id, fresh.id] },
      later(3_600_000 + 2),
    );
    await tick(later(3_600_000 + 2));
    const bouncedRun = await stepRun(bounced.id, 'm');
    expect(bouncedRun).toEqual({ outcome: 'skipped', detail: 'The address is suppressed (bounced or complained)' });
    expect(await db.selectFrom('deliveries').select('id').where('contactId', '=', bounced.id).execute()).toEqual([]);
    const twinRun = await stepRun(twin.id, 'm');
    expect(twinRun).toEqual({ outcome: 'skipped', detail: 'Unsubscribed from email' });
    const sent = await db.selectFrom('deliveries').select('contactId').where('journeyId', '=', j.id).execute();
    expect(sent.filter((x) => x.contactId === twin.id || x.contactId === fresh.id)).toEqual([{ contactId: fresh.id }]);
  });

  it('branches on a list, a recent gift, a text reply and a click; removes from a list', async () => {
    const l = await list('Branch list');
    const { recordEvents } = await import('../events/record.js');
    const branchOn = async (name: string, condition: Record<string, unknown>) =>
      active({
        name,
        trigger: { kind: 'manual' },
        steps: [
          { id: 'b', kind: 'branch', condition: condition as never, yes: 'y', no: 'n' },
          { id: 'y', kind: 'add_tag', tag: `${name}-yes`, next: 'out' },
          { id: 'n', kind: 'add_tag', tag: `${name}-no`, next: 'out' },
          { id: 'out', kind: 'remove_from_list', listId: l.id, next: null },
        ],
      });
    const onList = await branchOn('onlist', { kind: 'on_list', listId: l.id });
    const gave = await branchOn('gave', { kind: 'gave_within', days: 30 });
    const replied = await branchOn('replied', { kind: 'replied_by_text' });
    const yes = await contact();
    const no = await contact();
    await db.insertInto('contactsInLists').values({ userId: church.id, listId: l.id, contactId: yes.id }).execute();
    await db.transaction().execute((trx) =>
      recordEvents(trx, church.id, [
        {
          type: 'donation.succeeded',
          contactId: yes.id,
          payload: { project: { id: 1, name: 'P' }, donationId: 7, amountCents: 500, currency: 'usd', source: null },
        },
      ]),
    );
    const now = new Date();
    for (const j of [onList, gave])
      await enrollInJourney(db, church.id, { id: j.id, contactIds: [yes.id, no.id] }, now);
    await enrollInJourney(
      db,
      church.id,
      { id: replied.id, contactIds: [yes.id, no.id] },
      new Date(now.getTime() - 1000),
    );
    await db
      .transaction()
      .execute((trx) =>
        recordEvents(trx, church.id, [{ type: 'sms.received', contactId: yes.id, payload: { body: 'Thanks!' } }]),
      );
    await tick(new Date(now.getTime() + 1000));
    const tags = new Map(
      (await db.selectFrom('contacts').select(['id', 'tags']).where('id', 'in', [yes.id, no.id]).execute()).map((r) => [
        r.id,
        r.tags,
      ]),
    );
    expect(tags.get(yes.id)).toEqual(expect.arrayContaining(['onlist-yes', 'gave-yes', 'replied-yes']));
    expect(tags.get(no.id)).toEqual(expect.arrayContaining(['onlist-no', 'gave-no', 'replied-no']));
    // The last step took them off the list.
    expect(await db.selectFrom('contactsInLists').select('contactId').where('listId', '=', l.id).execute()).toEqual([]);
  });

  it('branches on a click in the previous email', async () => {
    const j = await active({
      name: 'Clicked?',
      trigger: { kind: 'manual' },
      steps: [
        {
          id: 'm',
          kind: 'email',
          name: 'Link',
          subject: 'Link',
          content: '<p><a href="https://example.org">x</a></p>',
          next: 'w',
        },
        { id: 'w', kind: 'wait', wait: { mode: 'duration', amount: 1, unit: 'hours' }, next: 'b' },
        { id: 'b', kind: 'branch', condition: { kind: 'clicked_previous_email' }, yes: 'y', no: 'n' },
        { id: 'y', kind: 'add_tag', tag: 'clicked', next: null },
        { id: 'n', kind: 'add_tag', tag: 'no-click', next: null },
      ],
    });
    const clicker = await contact();
    const other = await contact();
    await enrollInJourney(db, church.id, { id: j.id, contactIds: [clicker.id, other.id] }, T0);
    await tick(T0);
    const d = await db
      .selectFrom('deliveries')
      .select('id')
      .where('journeyId', '=', j.id)
      .where('contactId', '=', clicker.id)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('deliveryEvents')
      .values({ deliveryId: d.id, type: 'click', url: 'https://example.org' })
      .execute();
    await tick(later(3_600_000 + 1));
    const tags = new Map(
      (await db.selectFrom('contacts').select(['id', 'tags']).where('id', 'in', [clicker.id, other.id]).execute()).map(
        (r) => [r.id, r.tags],
      ),
    );
    expect(tags.get(clicker.id)).toEqual(['clicked']);
    expect(tags.get(other.id)).toEqual(['no-click']);
  });

  it('an exit step ends the journey as exited', async () => {
    const j = await active({
      name: 'Exit',
      trigger: { kind: 'manual' },
      steps: [{ id: 'x', kind: 'exit' }],
    });
    const c = await contact();
    await enrollInJourney(db, church.id, { id: j.id, contactIds: [c.id] }, T0);
    await tick(T0);
    expect((await enrollmentsOf(j.id))[0]).toMatchObject({ status: 'exited', exitReason: 'Reached an exit step' });
  });
});

describe('exits and goals', () => {
  const waiting: JourneyFieldsInput['steps'] = [
    { id: 'w', kind: 'wait', wait: { mode: 'duration', amount: 3, unit: 'days' }, next: 'm' },
    { id: 'm', kind: 'email', name: 'Later', subject: 'Later', content: '<p>x</p>', next: null },
  ];

  it('a goal reached converts; a deleted contact exits; a merged contact keeps the enrolment', async () => {
    const goalList = await list('Members');
    const j = await active({
      name: 'Goal',
      trigger: { kind: 'manual' },
      goal: { kind: 'joined_list', listId: goalList.id },
      steps: waiting,
    });
    const a = await contact();
    const b = await contact();
    const keep = await contact();
    const merged = await contact();
    await enrollInJourney(db, church.id, { id: j.id, contactIds: [a.id, b.id, merged.id] }, T0);
    await tick(T0);
    await addContactToList(db, church.id, { listId: goalList.id, contactId: a.id });
    await deleteContact(db, church.id, b.id);
    await mergeContacts(db, church.id, { id: keep.id, otherId: merged.id, mergedBy: 'test' });
    // The goal's event wakes the enrolment: converted at once, not in 3 days.
    await tick(later(60_000));
    const rows = await enrollmentsOf(j.id);
    expect(rows.find((r) => r.contactId === a.id)).toMatchObject({ status: 'converted' });
    expect(rows.find((r) => r.contactId === null)).toMatchObject({ status: 'exited', exitReason: 'Contact deleted' });
    expect(rows.find((r) => r.contactId === keep.id)).toMatchObject({ status: 'active', currentStepId: 'w' });
    await tick(later(3 * DAY + 1000));
    expect(await outbox(keep.email!)).toHaveLength(1);
    expect(await eventTypes(a.id)).toContain('journey.converted');
  });

  it('a paused journey runs no step and enrols nobody until activated again', async () => {
    const l = await list('Paused');
    const j = await active({ name: 'Pausing', trigger: { kind: 'list_added', listId: l.id }, steps: waiting });
    await pauseJourney(db, church.id, { id: j.id });
    const c = await contact();
    await addContactToList(db, church.id, { listId: l.id, contactId: c.id });
    await tick(T0);
    expect(await enrollmentsOf(j.id)).toHaveLength(0);
  });
});

/**
 * A visit as the runner makes it, held open: an enrolled person's enrolment is locked first; once
 * `go()` is called, the row a delivery would name (`names`: the journey's or the person's) is
 * key-share locked, as a foreign key check does, and the visit commits. `writing` (a delete, a
 * merge, an import's undo) starts while the visit holds its enrolment and must wait for it (one
 * session waiting on a lock), not deadlock.
 */
async function writeDuringVisit<T>(names: 'journeys' | 'contacts', writing: (j: number, c: number) => Promise<T>) {
  const steps: JourneyFieldsInput['steps'] = [
    { id: 'w', kind: 'wait', wait: { mode: 'duration', amount: 3, unit: 'days' }, next: null },
  ];
  const j = await active({ name: `Deleted mid-visit (${names})`, trigger: { kind: 'manual' }, steps });
  const c = await contact();
  await enrollInJourney(db, church.id, { id: j.id, contactIds: [c.id] });
  const [e] = await enrollmentsOf(j.id);
  let go!: () => void;
  const released = new Promise<void>((r) => (go = r));
  let locked!: () => void;
  const enrolmentLocked = new Promise<void>((r) => (locked = r));
  const visit = db.transaction().execute(async (trx) => {
    await trx.selectFrom('journeyEnrollments').select('id').where('id', '=', e!.id).forUpdate().execute();
    locked();
    await released;
    const id = names === 'journeys' ? j.id : c.id;
    await sql`select 1 from ${sql.table(names)} where id = ${id} for key share`.execute(trx);
  });
  await enrolmentLocked;
  const written = writing(j.id, c.id);
  // Sessions of this database waiting for a lock, read as the tables' owner (the application's
  // role sees no other session's wait): the write, behind the visit's enrolment.
  // Released whatever the wait shows: a transaction left open here would hold the file's other
  // tests (and its event-log readers) back.
  try {
    await expect.poll(() => lockWaiters(db), { timeout: 15_000 }).toBe(1);
  } finally {
    go();
    await visit;
  }
  return { journeyId: j.id, contactId: c.id, result: await written };
}

describe('deleting during a visit', () => {
  it('a journey waits for a visit in flight instead of deadlocking with it', async () => {
    const { journeyId, result } = await writeDuringVisit('journeys', (j) => deleteJourney(db, church.id, { id: j }));
    expect(result).toEqual({ id: journeyId });
    await expect(getJourney(db, church.id, { id: journeyId })).rejects.toThrow('Journey not found');
    expect(await enrollmentsOf(journeyId)).toHaveLength(0);
  });

  it('a person waits for a visit of their enrolment in flight, too', async () => {
    const { journeyId, contactId, result } = await writeDuringVisit('contacts', (_j, c) =>
      deleteContact(db, church.id, c),
    );
    expect(result).toEqual({ id: contactId });
    expect((await enrollmentsOf(journeyId))[0]).toMatchObject({ contactId: null, status: 'exited' });
  });

  it('archiving the journey waits for it too, and the person leaves it', async () => {
    const { journeyId } = await writeDuringVisit('journeys', (j) => archiveJourney(db, church.id, { id: j }));
    expect((await enrollmentsOf(journeyId))[0]).toMatchObject({ status: 'exited', exitReason: ARCHIVED_EXIT_REASON });
  });

  it('a merge of the person into another waits for it too, and the other carries on the enrolment', async () => {
    const keep = await contact();
    const { journeyId, contactId } = await writeDuringVisit('contacts', (_j, c) =>
      mergeContacts(db, church.id, { id: keep.id, otherId: c, mergedBy: 'test' }),
    );
    await expect(db.selectFrom('contacts').select('id').where('id', '=', contactId).execute()).resolves.toEqual([]);
    expect((await enrollmentsOf(journeyId))[0]).toMatchObject({ contactId: keep.id, status: 'active' });
  });

  it('an undo of the import that brought the person in waits for it too', async () => {
    const { journeyId, contactId, result } = await writeDuringVisit('contacts', async (_j, c) => {
      const imp = await db
        .insertInto('imports')
        .values({ userId: church.id, kind: 'people', fileName: 'people.csv', csv: '', source: 'csv', preview: '{}' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('importChanges')
        .values({ userId: church.id, importId: imp.id, tableName: 'contacts', rowId: c, action: 'created' })
        .execute();
      return db.transaction().execute((trx) => undoPeople(trx, church.id, imp.id, []));
    });
    expect(result).toMatchObject({ contactsRemoved: 1 });
    expect((await enrollmentsOf(journeyId))[0]).toMatchObject({ contactId: null, status: 'exited' });
    await expect(db.selectFrom('contacts').select('id').where('id', '=', contactId).execute()).resolves.toEqual([]);
  });
});

describe('entry rules and versions', () => {
  const steps: JourneyFieldsInput['steps'] = [{ id: 't', kind: 'add_tag', tag: 'x', next: null }];

  it('once / again after N days / every time', async () => {
    const once = await active({ name: 'Once', trigger: { kind: 'manual' }, entryRule: { kind: 'once' }, steps });
    const again = await active({
      name: 'Again',
      trigger: { kind: 'manual' },
      entryRule: { kind: 'again_after', days: 7 },
      steps,
    });
    const every = await active({
      name: 'Every',
      trigger: { kind: 'manual' },
      entryRule: { kind: 'every_time' },
      steps,
    });
    const c = await contact();
    const times = [T0, later(DAY), later(8 * DAY)];
    const entered: Record<string, number[]> = { once: [], again: [], every: [] };
    for (const at of times) {
      for (const [key, j] of [
        ['once', once],
        ['again', again],
        ['every', every],
      ] as const) {
        const r = await enrollInJourney(db, church.id, { id: j.id, contactIds: [c.id] }, at);
        entered[key]!.push(r.enrolled);
      }
      await tick(at);
    }
    expect(entered).toEqual({ once: [1, 0, 0], again: [1, 0, 1], every: [1, 1, 1] });
  });

  it('editing a journey people are in makes a new version; they finish on theirs', async () => {
    const j = await active({
      name: 'Versions',
      trigger: { kind: 'manual' },
      steps: [
        { id: 'w', kind: 'wait', wait: { mode: 'duration', amount: 1, unit: 'days' }, next: 't' },
        { id: 't', kind: 'add_tag', tag: 'v1', next: null },
      ],
    });
    const first = await contact();
    await enrollInJourney(db, church.id, { id: j.id, contactIds: [first.id] }, T0);
    const v2 = await updateJourney(db, church.id, {
      ...fields({
        name: 'Versions',
        trigger: { kind: 'manual' },
        steps: [
          { id: 'w', kind: 'wait', wait: { mode: 'duration', amount: 1, unit: 'days' }, next: 't' },
          { id: 't', kind: 'add_tag', tag: 'v2', next: null },
        ],
      }),
      id: j.id,
    });
    expect(v2.version).toBe(2);
    const second = await contact();
    await enrollInJourney(db, church.id, { id: j.id, contactIds: [second.id] }, T0);
    await tick(T0);
    await tick(later(DAY + 1000));
    const tags = new Map(
      (await db.selectFrom('contacts').select(['id', 'tags']).where('id', 'in', [first.id, second.id]).execute()).map(
        (r) => [r.id, r.tags],
      ),
    );
    expect(tags.get(first.id)).toEqual(['v1']);
    expect(tags.get(second.id)).toEqual(['v2']);
  });
});

describe('triggers', () => {
  const steps: JourneyFieldsInput['steps'] = [{ id: 't', kind: 'add_tag', tag: 'x', next: null }];
  it('a birthday enters at 9:00 church time, once that year', async () => {
    const j = await active({
      name: 'Birthday',
      trigger: { kind: 'date', field: 'birthday' },
      entryRule: { kind: 'every_time' },
      steps: [{ id: 't', kind: 'add_tag', tag: 'bday', next: null }],
    });
    const c = await contact({ dob: '1990-12-01' });
    await contact({ dob: '1990-12-02' });
    // 8:30 in New York on 1 December: not yet.
    expect(await runBirthdayTriggers(db, new Date('2026-12-01T13:30:00Z'))).toBe(0);
    expect(await runBirthdayTriggers(db, new Date('2026-12-01T14:00:00Z'))).toBe(1);
    expect(await runBirthdayTriggers(db, new Date('2026-12-01T20:00:00Z'))).toBe(0);
    const rows = await enrollmentsOf(j.id);
    expect(rows.map((r) => r.contactId)).toEqual([c.id]);
  });

  it('starts on a gift to a chosen giving fund only, and refuses another church’s fund', async () => {
    const missions = await db
      .insertInto('funds')
      .values({ userId: church.id, name: 'Missions' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const j = await active({
      name: 'Missions givers',
      trigger: { kind: 'donation_succeeded', fundId: missions.id },
      steps,
    });
    expect(j.triggerText).toBe('When someone gives to *Missions*');
    const toMissions = await contact();
    const toGeneral = await contact();
    const { recordEvents } = await import('../events/record.js');
    const gift = (donationId: number, fund: { id: number; name: string }) => ({
      gift: { id: donationId, frequency: 'one_time' as const, scheduleId: null },
      donationId,
      amountCents: 1000,
      currency: 'usd',
      source: null,
      funds: [{ fund, amountCents: 1000 }],
    });
    await db.transaction().execute((trx) =>
      recordEvents(trx, church.id, [
        {
          type: 'donation.succeeded',
          contactId: toMissions.id,
          payload: gift(901, { id: missions.id, name: 'Missions' }),
        },
        {
          type: 'donation.succeeded',
          contactId: toGeneral.id,
          payload: gift(902, { id: missions.id + 1000, name: 'General' }),
        },
      ]),
    );
    await tick(T0);
    expect((await enrollmentsOf(j.id)).map((e) => e.contactId)).toEqual([toMissions.id]);
    const otherFund = await db
      .insertInto('funds')
      .values({ userId: other.id, name: 'Theirs' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await expect(
      createJourney(
        db,
        church.id,
        fields({ name: 'x', trigger: { kind: 'donation_succeeded', fundId: otherFund.id } }),
      ),
    ).rejects.toThrow('Fund not found');
  });

  it('reads each event once: a first gift, a contact created by an import, a text keyword, a sign-up on a page', async () => {
    const gift = await active({
      name: 'First gift',
      trigger: { kind: 'donation_succeeded', firstGiftOnly: true },
      steps,
    });
    const kw = await active({ name: 'Keyword', trigger: { kind: 'keyword', keyword: 'hope' }, steps });
    const imp = await active({ name: 'Imported', trigger: { kind: 'contact_created', source: 'import' }, steps });
    const page = await db
      .insertInto('landingPages')
      .values({ userId: church.id, name: 'Easter at Grace', slug: 'easter' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const signup = await active({ name: 'Signed up', trigger: { kind: 'signup_confirmed', pageId: page.id }, steps });
    const visitor = await contact();
    const giver = await contact();
    const texter = await contact();
    const imported = await contact();
    const { recordEvents } = await import('../events/record.js');
    await db.transaction().execute((trx) =>
      recordEvents(trx, church.id, [
        {
          type: 'donation.succeeded',
          contactId: giver.id,
          payload: { project: { id: 1, name: 'P' }, donationId: 1, amountCents: 100, currency: 'usd', source: null },
        },
        {
          type: 'donation.succeeded',
          contactId: giver.id,
          payload: { project: { id: 1, name: 'P' }, donationId: 2, amountCents: 100, currency: 'usd', source: null },
        },
        { type: 'sms.received', contactId: texter.id, payload: { body: 'Hope please' } },
        { type: 'sms.received', contactId: giver.id, payload: { body: 'stop' } },
        { type: 'contact.created', contactId: imported.id, payload: { via: 'import' } },
        { type: 'contact.created', contactId: giver.id, payload: { via: 'staff' } },
        {
          type: 'signup.confirmed',
          contactId: visitor.id,
          payload: { page: { id: page.id, name: 'Easter at Grace' } },
        },
        { type: 'signup.confirmed', contactId: giver.id, payload: { page: null } },
      ]),
    );
    await tick(T0);
    await tick(T0);
    expect((await enrollmentsOf(gift.id)).map((e) => e.contactId)).toEqual([giver.id]);
    expect((await enrollmentsOf(kw.id)).map((e) => e.contactId)).toEqual([texter.id]);
    expect((await enrollmentsOf(imp.id)).map((e) => e.contactId)).toEqual([imported.id]);
    expect((await enrollmentsOf(signup.id)).map((e) => e.contactId)).toEqual([visitor.id]);
  });
});

describe('saving, activation and tests', () => {
  it('another church’s list is a 404; activation names each problem', async () => {
    const theirs = await list('Theirs', other.id);
    await expect(
      createJourney(db, church.id, fields({ name: 'X', trigger: { kind: 'list_added', listId: theirs.id } })),
    ).rejects.toThrow('List not found');
    const mine = await list('Soon deleted');
    const j = await createJourney(
      db,
      church.id,
      fields({
        name: 'Problems',
        trigger: { kind: 'list_added', listId: mine.id },
        steps: [
          { id: 'a', kind: 'wait', wait: { mode: 'duration', amount: 1, unit: 'days' }, next: 'b' },
          { id: 'b', kind: 'sms', name: 'Hi', body: 'Hi', next: 'c' },
          { id: 'c', kind: 'email', name: 'Empty', subject: 'S', content: '', next: null },
        ],
      }),
    );
    await db.deleteFrom('contactLists').where('id', '=', mine.id).execute();
    const check = await journeyActivationCheck(db, church.id, { id: j.id });
    expect(check.problems).toEqual(['Trigger: the list was deleted', 'Step 3: the email has no content']);
    await expect(activateJourney(db, church.id, { id: j.id })).rejects.toThrow('Step 3: the email has no content');
    expect((await getJourney(db, church.id, { id: j.id })).status).toBe('draft');
    await expect(getJourney(db, other.id, { id: j.id })).rejects.toThrow('Journey not found');
  });

  it('a test runs a draft for the account’s own address with waits in seconds', async () => {
    const j = await createJourney(
      db,
      church.id,
      fields({
        name: 'Test me',
        trigger: { kind: 'manual' },
        steps: [
          { id: 'w', kind: 'wait', wait: { mode: 'duration', amount: 2, unit: 'days' }, next: 'm' },
          { id: 'm', kind: 'email', name: 'Hello', subject: 'Test hello', content: '<p>Hello</p>', next: null },
        ],
      }),
    );
    const { enrollmentId } = await testJourney(db, church.id, { id: j.id, contactId: null }, T0);
    await tick(T0);
    expect((await listEnrollmentRuns(db, church.id, { enrollmentId })).runs).toHaveLength(0);
    await tick(later(2000));
    const runs = await listEnrollmentRuns(db, church.id, { enrollmentId });
    expect(runs.status).toBe('completed');
    expect(runs.runs.map((r) => [r.stepId, r.outcome])).toEqual([
      ['w', 'done'],
      ['m', 'done'],
    ]);
    expect((await outbox('grace@example.org')).some((m) => m.subject === 'Test hello')).toBe(true);
    // Tests are not counted.
    expect((await journeyStats(db, church.id, { id: j.id })).counts.completed).toBe(0);
  });
});

describe('a visit that fails', () => {
  it('keeps its error and comes back later, holding up no other enrolment of its transaction', async () => {
    const steps: JourneyFieldsInput['steps'] = [{ id: 't', kind: 'add_tag', tag: 'fine', next: null }];
    const broken = await active({ name: 'Broken', trigger: { kind: 'manual' }, steps });
    const fine = await active({ name: 'Fine', trigger: { kind: 'manual' }, steps });
    const a = await contact();
    const b = await contact();
    await enrollInJourney(db, church.id, { id: broken.id, contactIds: [a.id] }, T0);
    await enrollInJourney(db, church.id, { id: fine.id, contactIds: [b.id] }, T0);
    // A definition that no longer reads (as if written by a bug).
    await db
      .updateTable('journeyVersions')
      .set({ definition: JSON.stringify({ trigger: { kind: 'manual' }, steps: 'oops' }) })
      .where('journeyId', '=', broken.id)
      .execute();
    await runDueEnrollments(db, { now: T0 });
    expect((await enrollmentsOf(fine.id))[0]).toMatchObject({ status: 'completed' });
    const [stuck] = await enrollmentsOf(broken.id);
    expect(stuck).toMatchObject({ status: 'active', leaseUntil: null });
    expect(stuck!.lastError).toBeTruthy();
    expect(stuck!.nextRunAt!.getTime()).toBe(T0.getTime() + 5 * 60_000);
  });
});

describe('two runners at once', () => {
  it('each step runs once per enrolment', async () => {
    const l = await list('Many');
    const j = await active({
      name: 'Race',
      trigger: { kind: 'manual' },
      steps: [
        { id: 'm', kind: 'email', name: 'One', subject: 'One', content: '<p>1</p>', next: 't' },
        { id: 't', kind: 'add_tag', tag: 'raced', next: null },
      ],
    });
    const people = [];
    for (let i = 0; i < 60; i++) {
      const c = await contact();
      people.push(c);
      await db.insertInto('contactsInLists').values({ userId: church.id, listId: l.id, contactId: c.id }).execute();
    }
    await enrollInJourney(db, church.id, { id: j.id, listId: l.id }, T0);
    await Promise.all([
      runDueEnrollments(db, { now: T0, batchSize: 7 }),
      runDueEnrollments(db, { now: T0, batchSize: 5 }),
    ]);
    await Promise.all([deliverJourney(deps, j.id), deliverJourney(deps, j.id)]);
    const runs = await db
      .selectFrom('journeyStepRuns as r')
      .innerJoin('journeyEnrollments as e', 'e.id', 'r.enrollmentId')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('e.journeyId', '=', j.id)
      .executeTakeFirstOrThrow();
    expect(Number(runs.n)).toBe(120);
    const sent = await db
      .selectFrom('outboxMessages as o')
      .innerJoin('deliveries as d', 'd.id', 'o.deliveryId')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('d.journeyId', '=', j.id)
      .executeTakeFirstOrThrow();
    expect(Number(sent.n)).toBe(60);
  });
});

describe('a large enrolment', () => {
  it('refreshes the enrolments’ statistics, so the runner’s claims are planned for the new size', async () => {
    const j = await active({
      name: 'Everyone',
      trigger: { kind: 'manual' },
      steps: [{ id: 'tag', kind: 'add_tag', tag: 'everyone', next: null }],
    });
    const l = await list('Everyone');
    await sql`
      with c as (
        insert into contacts (user_id, first_name, last_name)
        select ${church.id}, 'Bulk' || g, 'Person' from generate_series(1, 1200) g returning id
      )
      insert into contacts_in_lists (user_id, contact_id, list_id) select ${church.id}, id, ${l.id} from c`.execute(db);
    const estimate = async () =>
      Number(
        (
          await sql<{
            n: number;
          }>`select reltuples::int as n from pg_class where relname = 'journey_enrollments'`.execute(db)
        ).rows[0]!.n,
      );
    const before = await estimate();
    expect(await enrollInJourney(db, church.id, { id: j.id, listId: l.id }, T0)).toEqual({
      enrolled: 1200,
      skipped: 0,
    });
    // ANALYZE ran (as the owner): the planner's row count now includes the 1,200.
    expect(await estimate()).toBeGreaterThanOrEqual(Math.max(before, 0) + 1200);
    // And the runner takes them all, in order, in its batches.
    let moved = 0;
    for (let i = 0; i < 10 && moved < 1200; i++) moved += (await runDueEnrollments(db, { now: T0 })).moved;
    expect(moved).toBe(1200);
  });
});
