import type { Db } from '@lampstand/db';
import { notFound } from '../../errors.js';
import { type MatrixEntry, type ScheduleMatrix } from '../../schemas/service-planner.js';
import { matrixStatusOf } from '../../shared/service-planner.js';
import { blocksDate, type Blockout } from './auto-schedule.js';
import { unfilledSlots } from './matrix-unfilled.js';

// The scheduling matrix: people × dates, each cell the person's assignments that day
// (position, service time, status) and whether they are away, and the slots nobody fills with why.
// The everyday view of who serves.

/**
 * The matrix for the plans dated from–to. With a team (a position category), only the team's
 * positions: its rows are the members qualified for one of them and anyone scheduled on one;
 * without, every active member and anyone scheduled. Another church's team is a 404.
 */
export async function scheduleMatrix(
  db: Db,
  tenantId: number,
  input: { from: string; to: string; teamId?: number },
): Promise<ScheduleMatrix> {
  const teams = await db
    .selectFrom('serviceTeams')
    .select(['id', 'name'])
    .where('userId', '=', tenantId)
    .orderBy('name')
    .execute();
  const team = input.teamId === undefined ? null : (teams.find((t) => t.id === input.teamId) ?? null);
  if (input.teamId !== undefined && !team) throw notFound('Team not found');

  const plans = await db
    .selectFrom('servicePlans')
    .select(['id', 'title', 'date', 'serviceTimes', 'positionsNeeded'])
    .where('userId', '=', tenantId)
    .where('date', '>=', input.from)
    .where('date', '<=', input.to)
    .orderBy('date')
    .orderBy('startTime')
    .orderBy('id')
    .execute();
  const planIds = plans.map((p) => p.id);
  const assignments = planIds.length
    ? await db
        .selectFrom('servicePlanAssignments as a')
        .innerJoin('servicePlans as p', 'p.id', 'a.servicePlanId')
        .leftJoin('teamPositions as pos', 'pos.id', 'a.positionId')
        .select(['a.id', 'a.teamMemberId', 'a.servicePlanId', 'a.positionId', 'a.serviceTime', 'a.status'])
        .select(['p.title', 'p.date', 'pos.name as positionName'])
        .where('a.userId', '=', tenantId)
        .where('a.servicePlanId', 'in', planIds)
        .$if(team !== null, (q) => q.where('pos.teamId', '=', team!.id))
        .orderBy('pos.name')
        .orderBy('a.serviceTime')
        .orderBy('a.id')
        .execute()
    : [];
  const scheduled = [...new Set(assignments.map((a) => a.teamMemberId))];
  const members = await db
    .selectFrom('teamMembers as m')
    .select(['m.id', 'm.name', 'm.isActive'])
    .where('m.userId', '=', tenantId)
    .where((eb) => {
      const inRange = scheduled.length ? [eb('m.id', 'in', scheduled)] : [];
      if (team === null) return eb.or([eb('m.isActive', '=', true), ...inRange]);
      const qualified = eb.exists(
        eb
          .selectFrom('teamMemberPositions as mp')
          .innerJoin('teamPositions as tp', 'tp.id', 'mp.positionId')
          .select('mp.positionId')
          .whereRef('mp.teamMemberId', '=', 'm.id')
          .where('tp.teamId', '=', team.id),
      );
      return eb.or([eb.and([eb('m.isActive', '=', true), qualified]), ...inRange]);
    })
    .orderBy('m.name')
    .orderBy('m.id')
    .execute();
  const memberIds = members.map((m) => m.id);
  const blockouts: Blockout[] = memberIds.length
    ? await db
        .selectFrom('teamMemberBlockouts')
        .select(['teamMemberId as memberId', 'startsOn', 'endsOn', 'recurrence', 'reason'])
        .where('userId', '=', tenantId)
        .where('teamMemberId', 'in', memberIds)
        .where('endsOn', '>=', input.from)
        .where('startsOn', '<=', input.to)
        .execute()
    : [];

  const dates: ScheduleMatrix['dates'] = [];
  for (const p of plans) {
    const last = dates[dates.length - 1];
    const plan = { id: p.id, title: p.title, serviceTimes: p.serviceTimes };
    if (last?.date === p.date) last.plans.push(plan);
    else dates.push({ date: p.date, plans: [plan] });
  }
  const entries = new Map<string, MatrixEntry[]>();
  for (const a of assignments) {
    const key = `${a.teamMemberId}:${a.date}`;
    if (!entries.has(key)) entries.set(key, []);
    entries.get(key)!.push({
      assignmentId: a.id,
      planId: a.servicePlanId,
      planTitle: a.title,
      positionId: a.positionId,
      positionName: a.positionName ?? null,
      serviceTime: a.serviceTime,
      status: matrixStatusOf(a.status),
    });
  }
  return {
    from: input.from,
    to: input.to,
    team,
    teams,
    dates,
    people: members.map((m) => ({
      memberId: m.id,
      name: m.name,
      isActive: m.isActive,
      cells: dates.map(({ date }) => {
        const away = blockouts.find((b) => b.memberId === m.id && blocksDate(b, date));
        return { date, away: !!away, awayReason: away?.reason ?? null, entries: entries.get(`${m.id}:${date}`) ?? [] };
      }),
    })),
    unfilled: await unfilledSlots(db, tenantId, { plans, teamId: team?.id ?? null }),
  };
}
