import type { Database, Db } from '@lampstand/db';
import type { Nullable, SelectQueryBuilder } from 'kysely';

/** The tables of `assignmentsJoined`, by their aliases (the position's may be missing). */
type AssignmentTables = Database & {
  a: Database['servicePlanAssignments'];
  m: Database['teamMembers'];
  p: Database['servicePlans'];
  pos: Nullable<Database['teamPositions']>;
};

/**
 * Assignments (a) with their member (m), plan (p) and position (pos, if any): what the planner's
 * assignments and its scheduling requests read. Its type is written out: declarations of an
 * inferred one would name the generated module.
 */
export function assignmentsJoined(
  db: Db,
): SelectQueryBuilder<AssignmentTables, 'a' | 'm' | 'p' | 'pos', Record<never, never>> {
  return db
    .selectFrom('servicePlanAssignments as a')
    .innerJoin('teamMembers as m', 'm.id', 'a.teamMemberId')
    .innerJoin('servicePlans as p', 'p.id', 'a.servicePlanId')
    .leftJoin('teamPositions as pos', 'pos.id', 'a.positionId');
}
