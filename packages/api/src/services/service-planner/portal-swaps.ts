import { sql, type Db } from '@lampstand/db';
import type { JobQueue } from '../../jobs.js';
import { offerSwap, type OfferResult } from './substitutes.js';

/** 'Swap a date' in the members' portal: the dates the session's people serve, and offering one. */

type Deps = { db: Db; jobs: JobQueue };

/** The team members a portal session speaks for (the person and their household). */
async function membersOf(db: Db, tenantId: number, contactIds: number[]): Promise<number[]> {
  if (contactIds.length === 0) return [];
  const rows = await db
    .selectFrom('teamMembers')
    .select('id')
    .where('userId', '=', tenantId)
    .where('contactId', 'in', contactIds)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The portal's 'Swap a date': the dates from `today` on that the session's people serve (not
 * declined), each with whether their teammates are being asked now.
 */
export async function swappableDates(db: Db, s: { userId: number; contactIds: number[] }, o: { today: string }) {
  const memberIds = await membersOf(db, s.userId, s.contactIds);
  if (memberIds.length === 0) return [];
  return db
    .selectFrom('servicePlanAssignments as a')
    .innerJoin('servicePlans as p', 'p.id', 'a.servicePlanId')
    .innerJoin('teamMembers as m', 'm.id', 'a.teamMemberId')
    .leftJoin('teamPositions as pos', 'pos.id', 'a.positionId')
    .select(['a.id', 'a.status', 'm.name as memberName', 'pos.name as positionName'])
    .select(['p.title as planTitle', 'p.date', 'p.startTime', 'p.serviceTimes', 'p.location'])
    .select(
      sql<boolean>`exists (select 1 from substitute_offers o where o.assignment_id = a.id and o.status = 'open')`.as(
        'offered',
      ),
    )
    .where('a.userId', '=', s.userId)
    .where('a.teamMemberId', 'in', memberIds)
    .where('a.status', '<>', 'declined')
    .where('p.date', '>=', o.today)
    .orderBy('p.date')
    .orderBy('a.id')
    .execute();
}

/** A swap offered from the portal: only a slot of the session's own people (else 404). */
export async function offerSwapFromPortal(
  deps: Deps,
  s: { userId: number; contactIds: number[] },
  input: { assignmentId: number },
): Promise<OfferResult> {
  const memberIds = await membersOf(deps.db, s.userId, s.contactIds);
  return offerSwap(deps, s.userId, { assignmentId: input.assignmentId, memberIds });
}
