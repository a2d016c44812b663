import { sql, type Db } from '@lampstand/db';

/**
 * Folds each church's rows of `contact_counts` for days before today into one per day (migration
 * 0096: the triggers append a row per inserting or deleting statement). Run by the nightly
 * maintenance job; answers how many folded rows were written.
 */
export async function compactContactCounts(db: Db): Promise<number> {
  const { rows } = await sql<{ n: number }>`select compact_contact_counts() as n`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** A church's number of contacts, as kept by the writes. */
export async function contactTotal(db: Db, tenantId: number): Promise<number> {
  const row = await db
    .selectFrom('contactCounts')
    .select(sql<number>`coalesce(sum(added - removed), 0)`.as('n'))
    .where('userId', '=', tenantId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
