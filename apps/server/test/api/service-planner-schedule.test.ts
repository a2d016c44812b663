import { describe, expect, it } from 'vitest';
import { registerChurch, startTestApp } from '../helpers/test-app.js';

// Blockouts (recurring too), members' limits, the proposal and its commit.

const app = await startTestApp();
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
const g = grace.client;
const h = hope.client;
const BASE = '/api/service-planner';

function expect400(res: { status: number; body: any }, field: string, message: string) {
  expect(res.status).toBe(400);
  expect(res.body.message).toBe(message);
  expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(field);
}

const sound = (await g.post(`${BASE}/positions`, { name: 'Sound', category: 'Tech' })).body;
const member = async (name: string, o: Record<string, unknown> = {}) =>
  (
    await g.post(`${BASE}/members`, {
      name,
      email: `${name.toLowerCase()}@example.org`,
      positionIds: [sound.id],
      ...o,
    })
  ).body;
const maria = await member('Maria');
await member('Ben', { maxPerMonth: 1 });
const cleo = await member('Cleo');
// Four Sundays in May 2031: 4, 11, 18, 25.
const plans: any[] = [];
for (const date of ['2031-05-04', '2031-05-11', '2031-05-18', '2031-05-25'])
  plans.push((await g.post(`${BASE}/plans`, { title: 'Sunday', date })).body);
const planIds = plans.map((p) => p.id);

describe('blockouts', () => {
  it('adds a range and a recurring blockout, lists them, and refuses an end before the start', async () => {
    const range = await g.post(`${BASE}/blockouts`, {
      memberId: maria.id,
      startsOn: '2031-05-10',
      endsOn: '2031-05-19',
      reason: 'Holiday',
    });
    expect(range.status).toBe(201);
    const monthly = await g.post(`${BASE}/blockouts`, {
      memberId: cleo.id,
      startsOn: '2031-01-01',
      endsOn: '2031-12-31',
      recurrence: { every: 'month', nth: 4, weekday: 0 },
    });
    expect(monthly.status).toBe(201);
    expect(monthly.body.blockouts[0].recurrence).toEqual({ every: 'month', nth: 4, weekday: 0 });
    const list = await g.get(`${BASE}/blockouts?from=2031-05-01&to=2031-05-31`);
    expect(list.body.map((b: { member: { name: string } }) => b.member.name)).toEqual(['Cleo', 'Maria']);
    expect((await h.get(`${BASE}/blockouts`)).body).toEqual([]);
    expect400(
      await g.post(`${BASE}/blockouts`, { memberId: maria.id, startsOn: '2031-05-10', endsOn: '2031-05-01' }),
      'endsOn',
      'End date must be on or after the start date',
    );
    expect(
      (await h.post(`${BASE}/blockouts`, { memberId: maria.id, startsOn: '2031-05-10', endsOn: '2031-05-11' })).status,
    ).toBe(404);
  });

  it("warns in a person's words when someone away is scheduled by hand", async () => {
    const res = await g.post(`${BASE}/plans/${plans[1].id}/assignments`, { memberId: maria.id, positionId: sound.id });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Maria is away 10–19 May');
    // A recurring blockout only covers its days: Cleo is free on the 2nd Sunday.
    const free = await g.post(`${BASE}/plans/${plans[1].id}/assignments`, {
      memberId: cleo.id,
      positionId: sound.id,
      force: true,
    });
    expect(free.body.warnings).toEqual([]);
    await g.delete(`${BASE}/assignments/${free.body.id}`);
  });
});

describe('auto-schedule', () => {
  it('proposes by the rules, says why a slot stays empty, and saves nothing', async () => {
    const camera = (await g.post(`${BASE}/positions`, { name: 'Camera', category: 'Tech' })).body;
    const res = await g.post(`${BASE}/schedule/proposal`, { planIds, positionIds: [sound.id, camera.id] });
    expect(res.status).toBe(200);
    const who = (date: string) => res.body.assignments.find((a: { date: string }) => a.date === date)?.memberName;
    // 4 May: Ben (limit 1 a month) and Cleo and Maria all free → lowest id first (Maria).
    // 11 and 18 May: Maria away; Ben then Cleo by rotation; 25 May: Cleo away (4th Sunday), Ben at his limit.
    expect(['2031-05-04', '2031-05-11', '2031-05-18', '2031-05-25'].map(who)).toEqual([
      'Maria',
      'Ben',
      'Cleo',
      'Maria',
    ]);
    expect(res.body.unfilled).toHaveLength(4);
    expect(res.body.unfilled[0]).toEqual({
      planId: plans[0].id,
      planTitle: 'Sunday',
      date: '2031-05-04',
      positionId: camera.id,
      positionName: 'Camera',
      reason: 'Nobody active is qualified for Camera',
    });
    // Who is away on which chosen date, with the reason and the words of the warning.
    expect(res.body.away).toEqual([
      {
        memberId: maria.id,
        memberName: 'Maria',
        date: '2031-05-11',
        reason: 'Holiday',
        warning: 'Maria is away 10–19 May',
      },
      {
        memberId: maria.id,
        memberName: 'Maria',
        date: '2031-05-18',
        reason: 'Holiday',
        warning: 'Maria is away 10–19 May',
      },
      {
        memberId: cleo.id,
        memberName: 'Cleo',
        date: '2031-05-25',
        reason: null,
        warning: 'Cleo is away that day (a recurring blockout)',
      },
    ]);
    expect((await g.get(`${BASE}/plans/${plans[0].id}`)).body.assignments).toEqual([]);
  });

  it('refuses more than 52 plans, and another church’s plan or position', async () => {
    expect400(
      await g.post(`${BASE}/schedule/proposal`, {
        planIds: Array.from({ length: 53 }, (_, i) => i + 1),
        positionIds: [sound.id],
      }),
      'planIds',
      'A proposal can cover at most 52 plans',
    );
    expect((await h.post(`${BASE}/schedule/proposal`, { planIds, positionIds: [sound.id] })).status).toBe(404);
    const hopeSound = (await h.post(`${BASE}/positions`, { name: 'Sound' })).body;
    expect((await g.post(`${BASE}/schedule/proposal`, { planIds, positionIds: [hopeSound.id] })).status).toBe(404);
    expect(
      (
        await h.post(`${BASE}/schedule/commit`, {
          assignments: [{ planId: plans[0].id, positionId: hopeSound.id, memberId: maria.id }],
        })
      ).status,
    ).toBe(404);
  });

  it('commits the edited proposal as assignments and sends each person their requests', async () => {
    const proposal = (await g.post(`${BASE}/schedule/proposal`, { planIds, positionIds: [sound.id] })).body;
    const res = await g.post(`${BASE}/schedule/commit`, {
      assignments: proposal.assignments.map((a: { planId: number; positionId: number; memberId: number }) => ({
        planId: a.planId,
        positionId: a.positionId,
        memberId: a.memberId,
      })),
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ created: 4, plans: 4, requests: 4, people: 3, skippedNoEmail: [], away: [] });
    // One email per person: Maria, asked for 4 and 25 May, gets one listing both dates.
    const mailTo = (name: string) =>
      app.db
        .selectFrom('outboxMessages')
        .select(['subject', 'text'])
        .where('toAddress', '=', `${name}@example.org`)
        .execute();
    for (const name of ['ben', 'cleo', 'maria'])
      await expect.poll(async () => (await mailTo(name)).length, { timeout: 20_000 }).toBe(1);
    const [toMaria] = await mailTo('maria');
    expect(toMaria!.subject).toBe('Can you serve on 2 dates?');
    expect(toMaria!.text).toContain('Sunday, May 4, 2031');
    expect(toMaria!.text).toContain('Sunday, May 25, 2031');
    expect(toMaria!.text!.match(/answer=accept/g)).toHaveLength(2);
    const first = (await g.get(`${BASE}/plans/${plans[0].id}`)).body;
    expect(first.assignments.map((a: { memberName: string; status: string }) => [a.memberName, a.status])).toEqual([
      ['Maria', 'scheduled'],
    ]);
    // Committing the same again creates nothing new.
    const again = await g.post(`${BASE}/schedule/commit`, {
      assignments: [{ planId: plans[0].id, positionId: sound.id, memberId: maria.id }],
      sendRequests: false,
    });
    expect(again.body.created).toBe(0);
    // The next proposal sees who serves now: everyone has served this month, nobody can do 4 May twice.
    const next = (await g.post(`${BASE}/schedule/proposal`, { planIds: [plans[0].id], positionIds: [sound.id] })).body;
    expect(next.assignments.map((a: { memberName: string }) => a.memberName)).toEqual(['Cleo']);
    // Someone put on a day they are away (the planner changed the proposal): said in the answer.
    const awayDay = await g.post(`${BASE}/schedule/commit`, {
      assignments: [{ planId: plans[1].id, positionId: sound.id, memberId: maria.id }],
      sendRequests: false,
    });
    expect(awayDay.body).toMatchObject({ created: 1, away: ['Maria is away 10–19 May'] });
  });

  it('shows a slot nobody could fill in the matrix, with why', async () => {
    // Two sound slots on 25 May: Maria has one; Cleo is away (4th Sunday), Ben at his monthly limit.
    const res = await g.post(`${BASE}/schedule/commit`, {
      assignments: [{ planId: plans[3].id, positionId: sound.id, memberId: maria.id }],
      slots: [
        { planId: plans[3].id, positionId: sound.id },
        { planId: plans[3].id, positionId: sound.id },
      ],
      sendRequests: false,
    });
    expect(res.status).toBe(201);
    const matrix = (await g.get(`${BASE}/matrix?from=2031-05-01&to=2031-05-31`)).body;
    expect(matrix.unfilled).toEqual([
      {
        date: '2031-05-25',
        planId: plans[3].id,
        planTitle: 'Sunday',
        positionId: sound.id,
        positionName: 'Sound',
        reason: 'No one free: 1 blocked out, 1 already serving that day, 1 at their monthly limit',
      },
    ]);
    // Another church's plan cannot be made to need a slot.
    const other = await h.post(`${BASE}/schedule/commit`, {
      assignments: [{ planId: plans[3].id, positionId: sound.id, memberId: maria.id }],
      slots: [{ planId: plans[3].id, positionId: sound.id }],
    });
    expect(other.status).toBe(404);
  });
});

describe('plan templates', () => {
  it('saves a plan as a template and makes plans from it every week, items, songs and positions included', async () => {
    const song = (await g.post(`${BASE}/songs`, { title: 'Template Song', keySignature: 'G' })).body;
    const source = (
      await g.post(`${BASE}/plans`, {
        title: 'Morning Worship',
        date: '2031-09-07',
        startTime: '10:00',
        serviceTimes: ['09:00', '11:00'],
        location: 'Main hall',
      })
    ).body;
    await g.post(`${BASE}/plans/${source.id}/items`, { title: 'Welcome', duration: 5 });
    await g.post(`${BASE}/plans/${source.id}/items`, {
      title: 'Opening song',
      duration: 4,
      song: { songId: song.id, keySignature: 'A' },
    });
    await g.post(`${BASE}/plans/${source.id}/assignments`, { memberId: cleo.id, positionId: sound.id });
    const t = await g.post(`${BASE}/templates`, { planId: source.id, name: 'Sunday morning' });
    expect(t.status).toBe(201);
    expect(t.body).toMatchObject({
      name: 'Sunday morning',
      title: 'Morning Worship',
      startTime: '10:00',
      serviceTimes: ['09:00', '11:00'],
      items: [
        { title: 'Welcome', duration: 5, songId: null },
        { title: 'Opening song', duration: 4, songId: song.id },
      ],
      positionsNeeded: [sound.id],
    });
    expect((await g.post(`${BASE}/templates`, { planId: source.id, name: 'Sunday morning' })).status).toBe(409);

    const made = await g.post(`${BASE}/templates/${t.body.id}/plans`, { date: '2031-10-05', weeks: 3 });
    expect(made.status).toBe(201);
    expect(made.body.plans.map((p: { date: string }) => p.date)).toEqual(['2031-10-05', '2031-10-12', '2031-10-19']);
    const plan = (await g.get(`${BASE}/plans/${made.body.plans[1].id}`)).body;
    expect(plan).toMatchObject({
      title: 'Morning Worship',
      status: 'draft',
      startTime: '10:00',
      serviceTimes: ['09:00', '11:00'],
      positionsNeeded: [sound.id],
      location: 'Main hall',
    });
    expect(plan.items.map((i: { title: string; startTime: string }) => [i.title, i.startTime])).toEqual([
      ['Welcome', '10:00'],
      ['Opening song', '10:05'],
    ]);
    expect(plan.items[1].song).toMatchObject({ songId: song.id, keySignature: 'A' });
    expect(plan.assignments).toEqual([]);
    expect((await g.get(`${BASE}/templates`)).body.map((x: { name: string }) => x.name)).toEqual(['Sunday morning']);

    expect400(
      await g.post(`${BASE}/templates/${t.body.id}/plans`, { date: '2031-10-05', weeks: 53 }),
      'weeks',
      'Weeks must be between 1 and 52',
    );
    expect((await h.post(`${BASE}/templates/${t.body.id}/plans`, { date: '2031-10-05' })).status).toBe(404);
    expect((await h.post(`${BASE}/templates`, { planId: source.id, name: 'Mine' })).status).toBe(404);
    expect((await h.get(`${BASE}/templates`)).body).toEqual([]);
    expect((await g.delete(`${BASE}/templates/${t.body.id}`)).status).toBe(200);
  });
});
