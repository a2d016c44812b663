import type { Database, Db } from '@lampstand/db';
import type { SelectQueryBuilder } from 'kysely';

// A project gift is a gift of the ledger with one line to the project's own fund: the queries
// that find one.

/** A project's own fund (a project gift is a gift with one line to it). */
export async function projectFund(db: Db, projectId: number): Promise<{ id: number }> {
  return db.selectFrom('funds').select('id').where('projectId', '=', projectId).executeTakeFirstOrThrow();
}

/** A gift's project, when one of its lines goes to a project's fund. */
export async function giftProject(db: Db, giftId: number) {
  return (
    (await db
      .selectFrom('giftLines as l')
      .innerJoin('funds as f', 'f.id', 'l.fundId')
      .innerJoin('showUpProjects as p', 'p.id', 'f.projectId')
      .select(['p.id', 'p.title'])
      .where('l.giftId', '=', giftId)
      .executeTakeFirst()) ?? null
  );
}

/** The tables of `projectGifts`, by their aliases. */
type ProjectGiftTables = Database & {
  g: Database['gifts'];
  l: Database['giftLines'];
  f: Database['funds'];
  p: Database['showUpProjects'];
};

/**
 * A project gift in the ledger: the gift, its line to a project's fund, and the project. Its type is
 * written out: declarations of an inferred one would name the generated module.
 */
export function projectGifts(
  db: Db,
): SelectQueryBuilder<ProjectGiftTables, 'g' | 'l' | 'f' | 'p', Record<never, never>> {
  return db
    .selectFrom('gifts as g')
    .innerJoin('giftLines as l', 'l.giftId', 'g.id')
    .innerJoin('funds as f', 'f.id', 'l.fundId')
    .innerJoin('showUpProjects as p', 'p.id', 'f.projectId');
}
