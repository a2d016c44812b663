import crypto from 'node:crypto';
import type { Db } from '@lampstand/db';
import type { z } from 'zod';
import { notFound } from '../../errors.js';
import type { scheduleCommitResultSchema, ScheduleProposal } from '../../schemas/service-planner.js';
import { awayWords, blocksDate, proposeSchedule, type Blockout, type ScheduleMember } from './auto-schedule.js';
import { sendRequests } from './requests.js';

// Auto-scheduling with the church's data: the proposal reads plans, positions,
// members, blockouts, households and what is already scheduled, and runs the pure rules of
// auto-schedule.ts; nothing is written until the planner commits (and sends the requests).

/** How far back what people served counts for rotation (least recently scheduled first). */
const HISTORY_DAYS = 120;

/** The last day of a date's month ('2031-05-04' → '2031-05-31'). */
const endOfMonth = (date: string) =>
  new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)), 0)).toISOString().slice(0, 10);

/**
 * What the scheduling rules read for plans dated from–to: the members (with their positions,
 * monthly limit and household), their blockouts in the range, and what is scheduled (declined
 * left out) from the rotation's history to the end of the last month.
 */
export async function readScheduleData(db: Db, tenantId: number, { from, to }: { from: string; to: string }) {
  const [memberRows, qualifications, blockouts, existing, families] = await Promise.all([
    db
      .selectFrom('teamMembers')
      .select(['id', 'name', 'isActive', 'maxPerMonth', 'scheduleWithHousehold', 'contactId'])
      .where('userId', '=', tenantId)
      .execute(),
    db
      .selectFrom('teamMemberPositions as mp')
      .innerJoin('teamMembers as m', 'm.id', 'mp.teamMemberId')
      .select(['mp.teamMemberId', 'mp.positionId'])
      .where('m.userId', '=', tenantId)
      .execute(),
    db
      .selectFrom('teamMemberBlockouts')
      .select(['teamMemberId as memberId', 'startsOn', 'endsOn', 'recurrence', 'reason'])
      .where('userId', '=', tenantId)
      .where('endsOn', '>=', from)
      .where('startsOn', '<=', to)
      .execute(),
    db
      .selectFrom('servicePlanAssignments as a')
      .innerJoin('servicePlans as p', 'p.id', 'a.servicePlanId')
      .select(['a.servicePlanId as planId', 'p.date', 'a.teamMemberId as memberId', 'a.positionId'])
      .where('a.userId', '=', tenantId)
      .where('a.status', '<>', 'declined')
      .where(
        'p.date',
        '>=',
        new Date(Date.parse(`${from}T00:00:00Z`) - HISTORY_DAYS * 86_400_000).toISOString().slice(0, 10),
      )
      // To the end of the last plan's month: the monthly limit counts the whole month.
      .where('p.date', '<=', endOfMonth(to))
      .execute(),
    db.selectFrom('contactFamilyLinks').select(['contact1Id', 'contact2Id']).where('userId', '=', tenantId).execute(),
  ]);

  // Households: members whose contacts are linked as family.
  const memberByContact = new Map(memberRows.filter((m) => m.contactId).map((m) => [m.contactId!, m.id]));
  const household = new Map<number, number[]>();
  for (const f of families) {
    const a = memberByContact.get(f.contact1Id);
    const b = memberByContact.get(f.contact2Id);
    if (a && b && a !== b) {
      household.set(a, [...(household.get(a) ?? []), b]);
      household.set(b, [...(household.get(b) ?? []), a]);
    }
  }
  const members: ScheduleMember[] = memberRows.map((m) => ({
    id: m.id,
    name: m.name,
    isActive: m.isActive,
    positionIds: qualifications.filter((q) => q.teamMemberId === m.id).map((q) => q.positionId),
    maxPerMonth: m.maxPerMonth,
    withHousehold: m.scheduleWithHousehold,
    householdIds: household.get(m.id) ?? [],
  }));
  return { memberRows, members, blockouts, existing };
}

export async function proposeScheduleFor(
  db: Db,
  tenantId: number,
  input: { planIds: number[]; positionIds: number[] },
): Promise<ScheduleProposal> {
  const plans = await db
    .selectFrom('servicePlans')
    .select(['id', 'date', 'title'])
    .where('userId', '=', tenantId)
    .where('id', 'in', input.planIds)
    .execute();
  if (plans.length !== input.planIds.length) throw notFound('Service plan not found');
  const positionSet = [...new Set(input.positionIds)];
  const positions = await db
    .selectFrom('teamPositions')
    .select(['id', 'name'])
    .where('userId', '=', tenantId)
    .where('id', 'in', positionSet)
    .execute();
  if (positions.length !== positionSet.length) throw notFound('Position not found');
  const dates = plans.map((p) => p.date).sort();
  const { memberRows, members, blockouts, existing } = await readScheduleData(db, tenantId, {
    from: dates[0]!,
    to: dates[dates.length - 1]!,
  });
  const positionNames = new Map(positions.map((p) => [p.id, p.name]));
  const result = proposeSchedule({
    plans,
    positionIds: input.positionIds,
    members,
    blockouts: blockouts,
    existing,
    positionNames,
  });
  const planById = new Map(plans.map((p) => [p.id, p]));
  const nameById = new Map(memberRows.map((m) => [m.id, m.name]));
  const slot = (planId: number, positionId: number) => ({
    planId,
    planTitle: planById.get(planId)!.title,
    date: planById.get(planId)!.date,
    positionId,
    positionName: positionNames.get(positionId)!,
  });
  return {
    assignments: result.assignments.map((a) => ({
      ...slot(a.planId, a.positionId),
      memberId: a.memberId,
      memberName: nameById.get(a.memberId)!,
    })),
    unfilled: result.unfilled.map((u) => ({ ...slot(u.planId, u.positionId), reason: u.reason })),
    away: awayOnDates(members, blockouts, { dates: [...new Set(dates)], positionIds: positionSet }),
  };
}

/** The active members qualified for a chosen position who are blocked out on a chosen date. */
function awayOnDates(
  members: ScheduleMember[],
  blockouts: Blockout[],
  chosen: { dates: string[]; positionIds: number[] },
): ScheduleProposal['away'] {
  const away: ScheduleProposal['away'] = [];
  for (const m of members) {
    if (!m.isActive || !m.positionIds.some((p) => chosen.positionIds.includes(p))) continue;
    const own = blockouts.filter((b) => b.memberId === m.id);
    for (const date of chosen.dates) {
      const b = own.find((x) => blocksDate(x, date));
      if (b)
        away.push({
          memberId: m.id,
          memberName: m.name,
          date,
          reason: b.reason ?? null,
          warning: awayWords(m.name, b),
        });
    }
  }
  return away;
}

/**
 * The proposal (as edited) made real: every assignment in one transaction (another church's plan,
 * position or member is a 404 and nothing is written), then the requests sent through the
 * delivery engine, one email per person however many dates they are asked for. An assignment that exists already (same plan, member and position) is kept.
 */
export async function commitSchedule(
  deps: Parameters<typeof sendRequests>[0],
  tenantId: number,
  input: {
    assignments: { planId: number; positionId: number; memberId: number }[];
    sendRequests: boolean;
    slots?: { planId: number; positionId: number }[];
  },
): Promise<z.input<typeof scheduleCommitResultSchema>> {
  const { db } = deps;
  const planIds = [...new Set(input.assignments.map((a) => a.planId))];
  const slots = input.slots ?? [];
  const { created, away } = await db.transaction().execute(async (trx) => {
    const count = async (table: 'servicePlans' | 'teamPositions' | 'teamMembers', ids: number[]) =>
      (await trx.selectFrom(table).select('id').where('userId', '=', tenantId).where('id', 'in', ids).execute())
        .length === ids.length;
    const memberIds = [...new Set(input.assignments.map((a) => a.memberId))];
    const positionIds = [...new Set(input.assignments.map((a) => a.positionId))];
    const slotPlanIds = [...new Set([...planIds, ...slots.map((x) => x.planId)])];
    const slotPositionIds = [...new Set([...positionIds, ...slots.map((x) => x.positionId)])];
    if (!(await count('servicePlans', slotPlanIds))) throw notFound('Service plan not found');
    if (!(await count('teamPositions', slotPositionIds))) throw notFound('Position not found');
    await needSlots(trx, tenantId, slots);
    if (!(await count('teamMembers', memberIds))) throw notFound('Team member not found');
    const existing = await trx
      .selectFrom('servicePlanAssignments')
      .select(['servicePlanId', 'teamMemberId', 'positionId'])
      .where('userId', '=', tenantId)
      .where('servicePlanId', 'in', planIds)
      .execute();
    const have = new Set(existing.map((e) => `${e.servicePlanId}:${e.teamMemberId}:${e.positionId}`));
    const rows = input.assignments
      .filter(
        (a) =>
          !have.has(`${a.planId}:${a.memberId}:${a.positionId}`) &&
          have.add(`${a.planId}:${a.memberId}:${a.positionId}`),
      )
      .map((a) => ({
        userId: tenantId,
        servicePlanId: a.planId,
        teamMemberId: a.memberId,
        positionId: a.positionId,
        token: crypto.randomBytes(32).toString('base64url'),
      }));
    if (rows.length) await trx.insertInto('servicePlanAssignments').values(rows).execute();
    return { created: rows.length, away: await awayWarnings(trx, tenantId, input.assignments) };
  });
  let requests = 0;
  const people = new Set<string>();
  const skippedNoEmail = new Set<string>();
  if (input.sendRequests) {
    // One scheduling action: a person asked for several dates gets one email listing them.
    const r = await sendRequests(deps, tenantId, { planIds });
    requests = r.sent;
    r.skippedNoEmail.forEach((n) => skippedNoEmail.add(n));
    for (const a of input.assignments) people.add(String(a.memberId));
  }
  return {
    created,
    plans: planIds.length,
    requests,
    people: input.sendRequests ? people.size : 0,
    skippedNoEmail: [...skippedNoEmail],
    away,
  };
}

/**
 * Each plan needs at least the slots given: a position asked for twice needs two people. Its
 * positions already needed stay; one needed more often than before is added as many times more.
 */
async function needSlots(trx: Db, tenantId: number, slots: { planId: number; positionId: number }[]) {
  if (slots.length === 0) return;
  const plans = await trx
    .selectFrom('servicePlans')
    .select(['id', 'positionsNeeded'])
    .where('userId', '=', tenantId)
    .where('id', 'in', [...new Set(slots.map((x) => x.planId))])
    .forUpdate()
    .execute();
  for (const plan of plans) {
    const want = new Map<number, number>();
    for (const x of slots) if (x.planId === plan.id) want.set(x.positionId, (want.get(x.positionId) ?? 0) + 1);
    const needed = [...plan.positionsNeeded];
    for (const [positionId, n] of want) {
      const have = needed.filter((id) => id === positionId).length;
      for (let i = have; i < n; i++) needed.push(positionId);
    }
    if (needed.length !== plan.positionsNeeded.length)
      await trx
        .updateTable('servicePlans')
        .set({ positionsNeeded: needed, updatedAt: new Date() })
        .where('id', '=', plan.id)
        .where('userId', '=', tenantId)
        .execute();
  }
}

/** The warnings for whoever the committed schedule puts on a day they are blocked out, once each. */
async function awayWarnings(db: Db, tenantId: number, assignments: { planId: number; memberId: number }[]) {
  const memberIds = [...new Set(assignments.map((a) => a.memberId))];
  const planIds = [...new Set(assignments.map((a) => a.planId))];
  const [plans, members, blockouts] = await Promise.all([
    db
      .selectFrom('servicePlans')
      .select(['id', 'date'])
      .where('userId', '=', tenantId)
      .where('id', 'in', planIds)
      .execute(),
    db
      .selectFrom('teamMembers')
      .select(['id', 'name'])
      .where('userId', '=', tenantId)
      .where('id', 'in', memberIds)
      .execute(),
    db
      .selectFrom('teamMemberBlockouts')
      .select(['teamMemberId as memberId', 'startsOn', 'endsOn', 'recurrence'])
      .where('userId', '=', tenantId)
      .where('teamMemberId', 'in', memberIds)
      .execute(),
  ]);
  const dateOf = new Map(plans.map((p) => [p.id, p.date]));
  const nameOf = new Map(members.map((m) => [m.id, m.name]));
  const words = new Set<string>();
  for (const a of assignments) {
    const b = blockouts.find((x) => x.memberId === a.memberId && blocksDate(x, dateOf.get(a.planId)!));
    if (b) words.add(awayWords(nameOf.get(a.memberId)!, b));
  }
  return [...words];
}
