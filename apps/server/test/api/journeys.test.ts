import { describe, expect, it } from 'vitest';
import { addContact, registerChurch, startTestApp } from '../helpers/test-app.js';

// The journeys and tasks REST routes, bad input naming the step, another
// church's ids (404), activation refused with reasons, and a journey run by the app's own worker
// (a list trigger → the welcome in the outbox, a task, the steps in the person's Activity).
const app = await startTestApp();
const church = await registerChurch(app.url, 'Grace Church');
const other = await registerChurch(app.url, 'Hope Church');

async function waitFor<T>(what: () => Promise<T | undefined | false>, label: string): Promise<T> {
  const until = Date.now() + 30_000;
  for (;;) {
    const v = await what();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const welcome = (listId: number) => ({
  name: 'Welcome a first-time guest',
  trigger: { kind: 'list_added', listId },
  steps: [
    {
      id: 'hello',
      kind: 'email',
      name: 'Welcome',
      subject: 'Welcome, {{firstName}}',
      content: '<p>Hi {{firstName}}</p>',
      next: 'call',
    },
    { id: 'call', kind: 'task', title: 'Call {{firstName}}', notes: 'Say hello', dueInDays: 2, next: null },
  ],
});

describe('Journeys over REST', () => {
  it('refuses bad input naming the step, and another church’s list, page or staff member with a 404', async () => {
    const tooLong = await church.client.post('/api/journeys', {
      name: 'Bad',
      trigger: { kind: 'manual' },
      steps: [{ id: 'w', kind: 'wait', wait: { mode: 'duration', amount: 366, unit: 'days' }, next: null }],
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.text).toContain('Step 1: a wait can be at most 365 days');
    const loop = await church.client.post('/api/journeys', {
      name: 'Loop',
      trigger: { kind: 'manual' },
      steps: [
        { id: 'a', kind: 'add_tag', tag: 'x', next: 'b' },
        { id: 'b', kind: 'add_tag', tag: 'y', next: 'a' },
      ],
    });
    expect(loop.status).toBe(400);
    expect(loop.text).toContain('the steps lead back to it');
    const noCondition = await church.client.post('/api/journeys', {
      name: 'Branch',
      trigger: { kind: 'manual' },
      steps: [{ id: 'b', kind: 'branch', condition: null, yes: null, no: null }],
    });
    expect(noCondition.status).toBe(400);
    expect(noCondition.text).toContain('Step 1: the branch has no condition');
    const tooMany = await church.client.post('/api/journeys', {
      name: 'Many',
      trigger: { kind: 'manual' },
      steps: Array.from({ length: 51 }, (_, i) => ({ id: `s${i}`, kind: 'add_tag', tag: 't', next: null })),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.text).toContain('Step 51: a journey can have at most 50 steps');
    const theirs = (await other.client.post('/api/contact-lists', { name: 'Theirs' })).body as { id: number };
    const foreign = await church.client.post('/api/journeys', welcome(theirs.id));
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('List not found');
    // Another church's landing page (the trigger) and staff member (a task's assignee): 404 too.
    const page = await other.client.post('/api/landing-pages', {
      name: 'Their page',
      slug: 'their-page',
      content: { blocks: [] },
    });
    expect(page.status, page.text).toBe(201);
    const onTheirPage = await church.client.post('/api/journeys', {
      ...welcome(theirs.id),
      trigger: { kind: 'signup_confirmed', pageId: page.body.id },
    });
    expect(onTheirPage.status).toBe(404);
    expect(onTheirPage.body.message).toBe('Landing page not found');
    const person = await other.client.post('/api/contacts', {
      firstName: 'Their',
      lastName: 'Pastor',
      email: 'tp@example.org',
      phone: '0412345678',
    });
    expect(person.status, person.text).toBe(201);
    const theirStaff = await church.client.post('/api/journeys', {
      name: 'Call',
      trigger: { kind: 'manual' },
      steps: [{ id: 't', kind: 'task', title: 'Call', dueInDays: 1, assigneeContactId: person.body.id, next: null }],
    });
    expect(theirStaff.status).toBe(404);
    expect(theirStaff.body.message).toBe('Staff member not found');
  });

  it('creates, reads, lists, replaces (a new version once people are in), activates, pauses and deletes', async () => {
    const list = (await church.client.post('/api/contact-lists', { name: 'Guests' })).body as { id: number };
    const created = await church.client.post('/api/journeys', welcome(list.id));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'draft',
      version: 1,
      triggerText: 'When someone is added to *Guests*',
      counts: { active: 0, completed: 0, converted: 0, exited: 0 },
    });
    expect(created.body.summary).toBe(
      'When someone is added to *Guests*: send *Welcome*, ask staff to *Call {{firstName}}*.',
    );
    const id = created.body.id as number;
    expect((await other.client.get(`/api/journeys/${id}`)).status).toBe(404);
    expect((await church.client.get('/api/journeys')).body.map((j: { id: number }) => j.id)).toContain(id);
    const activated = await church.client.post(`/api/journeys/${id}/activate`);
    expect(activated.status).toBe(200);
    expect(activated.body.status).toBe('active');
    const c = await addContact(church.client);
    const enrolled = await church.client.post(`/api/journeys/${id}/enroll`, { contactIds: [c.id] });
    expect(enrolled.body).toEqual({ enrolled: 1, skipped: 0 });
    // Once per person: a second time is skipped.
    expect((await church.client.post(`/api/journeys/${id}/enroll`, { contactIds: [c.id] })).body).toEqual({
      enrolled: 0,
      skipped: 1,
    });
    expect((await other.client.post(`/api/journeys/${id}/enroll`, { contactIds: [c.id] })).status).toBe(404);
    const replaced = await church.client.put(`/api/journeys/${id}`, { ...welcome(list.id), name: 'Welcome v2' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ name: 'Welcome v2', version: 2, status: 'active' });
    const paused = await church.client.post(`/api/journeys/${id}/pause`);
    expect(paused.body.status).toBe('paused');
    const enrollments = await church.client.get(`/api/journeys/${id}/enrollments`);
    expect(enrollments.body.enrollments).toHaveLength(1);
    expect(enrollments.body.enrollments[0]).toMatchObject({ contact: { id: c.id }, version: 1, test: false });
    // Another church's delete finds nothing, and leaves the journey where it is.
    expect((await other.client.delete(`/api/journeys/${id}`)).status).toBe(404);
    expect((await church.client.delete(`/api/journeys/${id}`)).status).toBe(200);
    expect((await church.client.get(`/api/journeys/${id}`)).status).toBe(404);
  });

  it('archives: the people in it leave with the reason in their Activity; it cannot be changed, started or tested', async () => {
    const j = (
      await church.client.post('/api/journeys', {
        name: 'Long wait',
        trigger: { kind: 'manual' },
        steps: [{ id: 'w', kind: 'wait', wait: { mode: 'duration', amount: 30, unit: 'days' }, next: null }],
      })
    ).body as { id: number };
    expect((await church.client.post(`/api/journeys/${j.id}/activate`)).status).toBe(200);
    const c = await addContact(church.client, { firstName: 'Ruth' });
    expect((await church.client.post(`/api/journeys/${j.id}/enroll`, { contactIds: [c.id] })).body.enrolled).toBe(1);
    expect((await other.client.post(`/api/journeys/${j.id}/archive`)).status).toBe(404);
    const archived = await church.client.post(`/api/journeys/${j.id}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ status: 'archived', counts: { active: 0, exited: 1 } });
    const [e] = (await church.client.get(`/api/journeys/${j.id}/enrollments`)).body.enrollments;
    expect(e).toMatchObject({ status: 'exited', exitReason: 'The journey was archived' });
    const activity = await church.client.get(`/api/contacts/${c.id}/events?kinds=journey`);
    expect(activity.body.events.find((x: { type: string }) => x.type === 'journey.exited')?.data).toMatchObject({
      reason: 'The journey was archived',
    });
    const again = await church.client.post(`/api/journeys/${j.id}/activate`);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('An archived journey cannot be started again');
    expect((await church.client.post(`/api/journeys/${j.id}/enroll`, { contactIds: [c.id] })).status).toBe(400);
    // Archiving twice changes nothing.
    expect((await church.client.post(`/api/journeys/${j.id}/archive`)).body.status).toBe('archived');
  });

  it('refuses to activate with the reason per step', async () => {
    const list = (await church.client.post('/api/contact-lists', { name: 'Soon gone' })).body as { id: number };
    const j = (
      await church.client.post('/api/journeys', {
        name: 'Not ready',
        trigger: { kind: 'list_added', listId: list.id },
        steps: [
          { id: 'a', kind: 'add_tag', tag: 'x', next: 'b' },
          { id: 'b', kind: 'add_tag', tag: 'y', next: 'c' },
          { id: 'c', kind: 'email', name: 'Empty', subject: 'Hi', content: '', next: null },
        ],
      })
    ).body as { id: number };
    await church.client.delete(`/api/contact-lists/${list.id}`);
    const res = await church.client.post(`/api/journeys/${j.id}/activate`);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Trigger: the list was deleted');
    expect(res.body.message).toContain('Step 3: the email has no content');
  });
});

describe('A journey run by the worker', () => {
  it('a person added to the list gets the welcome, a task is made, and the steps are in their Activity', async () => {
    const list = (await church.client.post('/api/contact-lists', { name: 'First-time guests' })).body as { id: number };
    const j = (await church.client.post('/api/journeys', welcome(list.id))).body as { id: number };
    expect((await church.client.post(`/api/journeys/${j.id}/activate`)).status).toBe(200);
    const c = await addContact(church.client, { firstName: 'Maria' });
    expect((await church.client.post(`/api/contact-lists/${list.id}/contacts/${c.id}`)).status).toBeLessThan(300);
    const mail = await waitFor(
      () =>
        app.db
          .selectFrom('outboxMessages')
          .selectAll()
          .where('toAddress', '=', c.email!)
          .where('subject', '=', 'Welcome, Maria')
          .executeTakeFirst(),
      'the welcome email',
    );
    expect(mail.html).toContain('Unsubscribe');
    const tasks = await waitFor(async () => {
      const t = await church.client.get('/api/tasks?status=open');
      return t.body.tasks.length > 0 && t.body.tasks;
    }, 'the task');
    expect(tasks[0]).toMatchObject({ title: 'Call Maria', contact: { id: c.id }, journey: { id: j.id } });
    expect((await other.client.patch(`/api/tasks/${tasks[0].id}`, { status: 'done' })).status).toBe(404);
    // Given to a staff member: they are emailed once (giving it to them again tells them nothing new).
    const pastor = await addContact(church.client, {
      firstName: 'John',
      lastName: 'Pastor',
      email: 'john@example.org',
    });
    const reassigned = await church.client.patch(`/api/tasks/${tasks[0].id}`, { assigneeContactId: pastor.id });
    expect(reassigned.body).toMatchObject({ assignee: { contactId: pastor.id, name: 'John Pastor' } });
    const toJohn = () =>
      app.db
        .selectFrom('outboxMessages')
        .select(['subject', 'text'])
        .where('toAddress', '=', 'john@example.org')
        .execute();
    const told = await waitFor(async () => (await toJohn()).length > 0 && toJohn(), 'the task email to John');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ subject: 'A follow-up for you: Call Maria' });
    expect(told[0]!.text).toContain('Hello John,');
    await church.client.patch(`/api/tasks/${tasks[0].id}`, { assigneeContactId: null });
    await church.client.patch(`/api/tasks/${tasks[0].id}`, { assigneeContactId: pastor.id });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await toJohn()).toHaveLength(1);
    const done = await church.client.patch(`/api/tasks/${tasks[0].id}`, { status: 'done' });
    expect(done.body).toMatchObject({ status: 'done' });
    const stats = await church.client.get(`/api/journeys/${j.id}/stats`);
    expect(stats.body.counts).toEqual({ active: 0, completed: 1, converted: 0, exited: 0 });
    const activity = await church.client.get(`/api/contacts/${c.id}/events?kinds=journey,task`);
    const types = activity.body.events.map((e: { type: string }) => e.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'journey.entered',
        'journey.step_done',
        'task.assigned',
        'journey.completed',
        'task.done',
      ]),
    );
  });
});

describe('The editor’s own procedures (tRPC)', () => {
  const query = (path: string, input: unknown) =>
    church.client.get(`/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`);

  it('starts from a ready journey, checks it before activating and tests it on the account’s own address', async () => {
    const starters = await church.client.get('/trpc/journeys.starters');
    const all = starters.body.result.data as { key: string; name: string; fields: Record<string, unknown> }[];
    expect(all.map((s) => s.name)).toEqual([
      'Welcome a first-time guest',
      'Thank a first-time giver',
      'Welcome a first-time family',
      'Event reminders',
      'We missed you',
      'Birthday greeting',
      'Welcome a new volunteer',
      'Missed three weeks of their group',
      'Bring recurring givers back',
    ]);
    const guest = all.find((s) => s.key === 'first-time-guest')!;
    const j = (await church.client.post('/api/journeys', guest.fields)).body as { id: number; summary: string };
    expect(j.summary).toMatch(/^When someone signs up on any landing page: send \*Welcome\*/);
    const check = await query('journeys.activationCheck', { id: j.id });
    expect(check.body.result.data).toEqual({ reach: null, problems: [] });
    const started = await church.client.post('/trpc/journeys.test', { id: j.id, contactId: null });
    const enrollmentId = started.body.result.data.enrollmentId as number;
    // Waits of 2 and 5 days last 2 and 5 seconds in a test.
    const runs = await waitFor(async () => {
      const r = (await query('journeys.enrollmentRuns', { enrollmentId })).body.result.data;
      return r.status === 'completed' && r;
    }, 'the test run');
    expect(runs.runs.map((r: { stepId: string; outcome: string }) => `${r.stepId}:${r.outcome}`)).toEqual([
      'welcome:done',
      'call:done',
      'wait-2d:done',
      'hello-text:skipped',
      'wait-5d:done',
      'lunch:done',
    ]);
    const wanted = ['Welcome to Grace Church', 'Join us for lunch', 'A follow-up for you: Call Grace Church'];
    // The messages go out on the delivery engine, a moment after their steps ran.
    await waitFor(async () => {
      const mine = await app.db
        .selectFrom('outboxMessages')
        .select('subject')
        .where('toAddress', '=', church.user.email)
        .execute();
      return wanted.every((w) => mine.some((m) => m.subject === w));
    }, 'the test’s emails to the account');

    const foreign = await other.client.get(
      `/trpc/journeys.enrollmentRuns?input=${encodeURIComponent(JSON.stringify({ enrollmentId }))}`,
    );
    expect(foreign.status).toBe(404);
  }, 60_000);
});
