import { describe, expect, it } from 'vitest';
import { expect400, PLANNER as BASE, plannerChurches } from '../helpers/planner.js';

// Assignments per service time (or for all of them), and the scheduling matrix.

const { g, h } = await plannerChurches();

const sound = (await g.post(`${BASE}/positions`, { name: 'Sound', category: 'Tech' })).body;
const vocals = (await g.post(`${BASE}/positions`, { name: 'Vocals', category: 'Worship' })).body;
const member = async (name: string, positionIds: number[]) =>
  (await g.post(`${BASE}/members`, { name, email: `${name.toLowerCase()}@example.org`, positionIds })).body;
const maria = await member('Maria', [sound.id]);
const ben = await member('Ben', [sound.id, vocals.id]);
const cleo = await member('Cleo', [vocals.id]);
const twoTimes = (
  await g.post(`${BASE}/plans`, { title: 'Sunday', date: '2031-06-01', serviceTimes: ['11:00', '09:00'] })
).body;
const later = (await g.post(`${BASE}/plans`, { title: 'Sunday', date: '2031-06-08' })).body;
const assign = (planId: number, body: Record<string, unknown>) => g.post(`${BASE}/plans/${planId}/assignments`, body);

describe('assignments per service time', () => {
  it('schedules one person at 9:00 and again at 11:00 without a warning, but not twice at one time', async () => {
    const nine = await assign(twoTimes.id, { memberId: maria.id, positionId: sound.id, serviceTime: '09:00' });
    expect(nine.status).toBe(201);
    expect(nine.body.serviceTime).toBe('09:00');
    const eleven = await assign(twoTimes.id, { memberId: maria.id, positionId: sound.id, serviceTime: '11:00' });
    expect(eleven.status).toBe(201);
    expect(eleven.body.warnings).toEqual([]);
    const again = await assign(twoTimes.id, { memberId: maria.id, positionId: sound.id, serviceTime: '09:00' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Maria is already scheduled in this plan at 09:00');
    // 'All times' overlaps every time.
    const all = await assign(twoTimes.id, { memberId: maria.id, positionId: sound.id });
    expect(all.status).toBe(409);
    const forced = await assign(twoTimes.id, { memberId: maria.id, positionId: sound.id, force: true });
    expect(forced.status).toBe(201);
    expect(forced.body.serviceTime).toBeNull();
    expect(forced.body.warnings).toEqual(['Maria is scheduled more than once in this plan']);
    const plan = (await g.get(`${BASE}/plans/${twoTimes.id}`)).body;
    expect(plan.assignments.map((a: { serviceTime: string | null }) => a.serviceTime).sort()).toEqual([
      '09:00',
      '11:00',
      null,
    ]);
    for (const a of [nine, eleven, forced]) await g.delete(`${BASE}/assignments/${a.body.id}`);
  });

  it("refuses a time that is not one of the plan's, and changes the time of an assignment", async () => {
    expect400(
      await assign(twoTimes.id, { memberId: ben.id, serviceTime: '10:00' }),
      'serviceTime',
      "Service time must be one of the plan's times (09:00, 11:00)",
    );
    expect400(
      await assign(later.id, { memberId: ben.id, serviceTime: '09:00' }),
      'serviceTime',
      'This plan has no service times: leave the time empty for all of it',
    );
    expect400(
      await assign(twoTimes.id, { memberId: ben.id, serviceTime: '9am' }),
      'serviceTime',
      'Service time must be a time as HH:MM',
    );
    const a = (await assign(twoTimes.id, { memberId: ben.id, positionId: vocals.id })).body;
    const moved = await g.patch(`${BASE}/assignments/${a.id}`, { serviceTime: '11:00' });
    expect(moved.status).toBe(200);
    expect(moved.body.serviceTime).toBe('11:00');
    expect(moved.body.positionName).toBe('Vocals');
    expect400(
      await g.patch(`${BASE}/assignments/${a.id}`, { serviceTime: '10:00' }),
      'serviceTime',
      "Service time must be one of the plan's times (09:00, 11:00)",
    );
    const back = await g.patch(`${BASE}/assignments/${a.id}`, { serviceTime: null });
    expect(back.body.serviceTime).toBeNull();
    await g.delete(`${BASE}/assignments/${a.id}`);
  });

  it("auto-schedule's commit keeps 'all times'", async () => {
    const res = await g.post(`${BASE}/schedule/commit`, {
      assignments: [{ planId: twoTimes.id, positionId: vocals.id, memberId: cleo.id }],
      sendRequests: false,
    });
    expect(res.status).toBe(201);
    const plan = (await g.get(`${BASE}/plans/${twoTimes.id}`)).body;
    expect(plan.assignments).toHaveLength(1);
    expect(plan.assignments[0].serviceTime).toBeNull();
    await g.delete(`${BASE}/assignments/${plan.assignments[0].id}`);
  });
});

describe('the scheduling matrix', () => {
  it('shows people × dates with each cell’s position, time and status, filtered by team', async () => {
    const a1 = (await assign(twoTimes.id, { memberId: maria.id, positionId: sound.id, serviceTime: '09:00' })).body;
    const a2 = (await assign(twoTimes.id, { memberId: cleo.id, positionId: vocals.id })).body;
    const a3 = (await assign(later.id, { memberId: ben.id, positionId: vocals.id })).body;
    await g.patch(`${BASE}/assignments/${a2.id}`, { status: 'confirmed' });
    await g.patch(`${BASE}/assignments/${a3.id}`, { status: 'declined' });
    await g.post(`${BASE}/blockouts`, {
      memberId: maria.id,
      startsOn: '2031-06-08',
      endsOn: '2031-06-08',
      reason: 'Wedding',
    });

    const res = await g.get(`${BASE}/matrix?from=2031-06-01&to=2031-06-30`);
    expect(res.status).toBe(200);
    expect(res.body.teams.map((t: { name: string }) => t.name)).toEqual(['Tech', 'Worship']);
    expect(res.body.dates.map((d: { date: string }) => d.date)).toEqual(['2031-06-01', '2031-06-08']);
    expect(res.body.dates[0].plans[0].serviceTimes).toEqual(['09:00', '11:00']);
    const row = (name: string) => res.body.people.find((p: { name: string }) => p.name === name);
    expect(res.body.people.map((p: { name: string }) => p.name)).toEqual(['Ben', 'Cleo', 'Maria']);
    expect(row('Maria').cells[0].entries).toEqual([
      {
        assignmentId: a1.id,
        planId: twoTimes.id,
        planTitle: 'Sunday',
        positionId: sound.id,
        positionName: 'Sound',
        serviceTime: '09:00',
        status: 'pending',
      },
    ]);
    expect(row('Maria').cells[1]).toEqual({ date: '2031-06-08', away: true, awayReason: 'Wedding', entries: [] });
    expect(row('Cleo').cells[0].entries[0]).toMatchObject({ status: 'accepted', serviceTime: null });
    expect(row('Ben').cells[1].entries[0]).toMatchObject({ status: 'declined', positionName: 'Vocals' });

    const worship = res.body.teams.find((t: { name: string }) => t.name === 'Worship');
    const team = await g.get(`${BASE}/matrix?from=2031-06-01&to=2031-06-30&teamId=${worship.id}`);
    expect(team.body.team).toEqual(worship);
    // Maria fills no Worship position; her Sound assignment is not the team's.
    expect(team.body.people.map((p: { name: string }) => p.name)).toEqual(['Ben', 'Cleo']);
    expect(team.body.people[1].cells[0].entries.map((e: { positionName: string }) => e.positionName)).toEqual([
      'Vocals',
    ]);
  });

  it('a position given a new category moves to that team', async () => {
    const camera = (await g.post(`${BASE}/positions`, { name: 'Camera' })).body;
    await g.patch(`${BASE}/positions/${camera.id}`, { category: 'Media' });
    const res = await g.get(`${BASE}/matrix?from=2031-06-01&to=2031-06-02`);
    expect(res.body.teams.map((t: { name: string }) => t.name)).toEqual(['Media', 'Tech', 'Worship']);
  });

  it('refuses bad dates and more than 52 weeks (400 naming the field), and another church’s team (404)', async () => {
    expect400(await g.get(`${BASE}/matrix?from=2031-02-30&to=2031-06-30`), 'from', 'From must be a valid date');
    expect400(await g.get(`${BASE}/matrix?from=2031-06-01`), 'to', 'To is required');
    expect400(await g.get(`${BASE}/matrix?from=2031-06-30&to=2031-06-01`), 'to', 'To must be on or after From');
    expect400(
      await g.get(`${BASE}/matrix?from=2031-01-01&to=2032-01-01`),
      'to',
      'The matrix can show at most 52 weeks',
    );
    expect((await g.get(`${BASE}/matrix?from=2031-01-01&to=2031-12-29`)).status).toBe(200);
    expect400(
      await g.get(`${BASE}/matrix?from=2031-06-01&to=2031-06-30&teamId=abc`),
      'teamId',
      'Team ID must be a positive whole number',
    );
    const tech = (await g.get(`${BASE}/matrix?from=2031-06-01&to=2031-06-30`)).body.teams[0];
    const other = await h.get(`${BASE}/matrix?from=2031-06-01&to=2031-06-30&teamId=${tech.id}`);
    expect(other.status).toBe(404);
    expect(other.body.message).toBe('Team not found');
    // Another church sees none of Grace's people or plans.
    const theirs = (await h.get(`${BASE}/matrix?from=2031-06-01&to=2031-06-30`)).body;
    expect(theirs).toMatchObject({ teams: [], dates: [], people: [] });
  });
});
