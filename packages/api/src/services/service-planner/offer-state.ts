import type { Db } from '@lampstand/db';

/** Where a slot's cover or swap offer stands: still asking, or who covers it. */

/** For a request's page: whether the slot's teammates are being asked now, or who covers it. */
export async function offerStateFor(
  db: Db,
  input: { token: string },
): Promise<{ state: 'asking' } | { state: 'covered'; by: string } | null> {
  const o = await db
    .selectFrom('substituteOffers as o')
    .innerJoin('servicePlanAssignments as a', 'a.id', 'o.assignmentId')
    .select(['o.status', 'o.assignmentId'])
    .where('a.token', '=', input.token)
    .where('o.status', 'in', ['open', 'filled'])
    .orderBy('o.id', 'desc')
    .executeTakeFirst();
  if (!o) return null;
  if (o.status === 'open') return { state: 'asking' };
  const by = await coveredBy(db, o.assignmentId);
  return by === null ? null : { state: 'covered', by };
}

/**
 * The teammate who covers a slot (a filled cover or swap offer of it), or null. The slot's own
 * links then answer 'Already covered by …' instead of taking an answer: accepting again would
 * schedule two people in one slot.
 */
export async function coveredBy(db: Db, assignmentId: number): Promise<string | null> {
  const row = await db
    .selectFrom('substituteOffers as o')
    .innerJoin('servicePlanAssignments as f', 'f.id', 'o.filledAssignmentId')
    .innerJoin('teamMembers as m', 'm.id', 'f.teamMemberId')
    .select('m.name')
    .where('o.assignmentId', '=', assignmentId)
    .where('o.status', '=', 'filled')
    .where('f.status', '<>', 'declined')
    .orderBy('o.id', 'desc')
    .executeTakeFirst();
  return row?.name ?? null;
}

export const alreadyCoveredMessage = (name: string) => `Already covered by ${name}`;
