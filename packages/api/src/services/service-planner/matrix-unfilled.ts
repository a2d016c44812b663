import type { Db } from '@lampstand/db';
import type { ScheduleMatrix } from '../../schemas/service-planner.js';
import { unfilledReason } from './auto-schedule.js';
import { readScheduleData } from './schedule.js';

type Unfilled = ScheduleMatrix['unfilled'][number];

/**
 * The slots of the plans that nobody fills: each plan's positions needed (from its template or
 * an auto-schedule) less those scheduled (a declined request leaves its slot open), each with why
 * by the auto-schedule's rules ('No one free: 2 blocked out, 1 at their monthly limit'). With a
 * team, only the team's positions.
 */
export async function unfilledSlots(
  db: Db,
  tenantId: number,
  input: { plans: { id: number; title: string; date: string; positionsNeeded: number[] }[]; teamId: number | null },
): Promise<Unfilled[]> {
  const wanting = input.plans.filter((p) => p.positionsNeeded.length > 0);
  if (wanting.length === 0) return [];
  const positions = await db
    .selectFrom('teamPositions')
    .select(['id', 'name', 'teamId'])
    .where('userId', '=', tenantId)
    .where('id', 'in', [...new Set(wanting.flatMap((p) => p.positionsNeeded))])
    .$if(input.teamId !== null, (q) => q.where('teamId', '=', input.teamId!))
    .execute();
  if (positions.length === 0) return [];
  const nameOf = new Map(positions.map((p) => [p.id, p.name]));
  const filled = await db
    .selectFrom('servicePlanAssignments')
    .select(['servicePlanId', 'positionId', (eb) => eb.fn.countAll<number>().as('n')])
    .where('userId', '=', tenantId)
    .where(
      'servicePlanId',
      'in',
      wanting.map((p) => p.id),
    )
    .where('status', '<>', 'declined')
    .groupBy(['servicePlanId', 'positionId'])
    .execute();
  const have = new Map(filled.map((f) => [`${f.servicePlanId}:${f.positionId}`, Number(f.n)]));
  const missing: { plan: (typeof wanting)[number]; positionId: number }[] = [];
  for (const plan of wanting) {
    const need = new Map<number, number>();
    for (const id of plan.positionsNeeded) if (nameOf.has(id)) need.set(id, (need.get(id) ?? 0) + 1);
    for (const [positionId, n] of need)
      for (let i = have.get(`${plan.id}:${positionId}`) ?? 0; i < n; i++) missing.push({ plan, positionId });
  }
  if (missing.length === 0) return [];
  const dates = missing.map((m) => m.plan.date).sort();
  const data = await readScheduleData(db, tenantId, { from: dates[0]!, to: dates[dates.length - 1]! });
  return missing.map(({ plan, positionId }) => ({
    date: plan.date,
    planId: plan.id,
    planTitle: plan.title,
    positionId,
    positionName: nameOf.get(positionId)!,
    reason: unfilledReason({
      date: plan.date,
      positionId,
      positionName: nameOf.get(positionId)!,
      members: data.members,
      blockouts: data.blockouts,
      existing: data.existing,
    }),
  }));
}
