import { sql, type Db } from '@lampstand/db';
import { conflict } from '../../../errors.js';
import { churchTables } from '../../exports/tables.js';

/**
 * "A new church": one with no rows yet in any table an export writes, apart from what sign-up and
 * moving in make themselves: its settings (one row each, replaced by the export's), the General
 * fund (replaced), the emails sign-up sent (kept in the local outbox when no mail server is set
 * up; the export's are added beside them), its exports and its move-in uploads. Anything else
 * would be mixed with the export's rows, so the export is refused with the first such table named.
 */

/** Tables a new church may already have rows in. */
const SIGN_UP_TABLES = new Set(['exports', 'imports', 'import_presets', 'funds', 'outbox_messages']);

/** Tables of one row per church (their key is the church): the export's row replaces the new church's. */
export const isChurchSingleton = (orderBy: string[]) => orderBy.length === 1 && orderBy[0] === 'user_id';

export const NOT_NEW = (what: string, more: number) =>
  `This church already has ${what}${more > 0 ? ` (and data in ${more} more ${more === 1 ? 'table' : 'tables'})` : ''}: ` +
  'a Lampstand export moves only into a new church. Sign up a new church and move in there.';

export async function assertNewChurch(db: Db, tenantId: number): Promise<void> {
  // A child table (no church column) has rows only where its parent table has.
  const tables = (await churchTables(db)).filter(
    (t) => !t.parent && !SIGN_UP_TABLES.has(t.name) && !isChurchSingleton(t.orderBy),
  );
  const { rows } = await sql<{ tbl: string }>`${sql.join(
    tables.map(
      (t) =>
        sql`select ${t.name}::text as tbl where exists (select 1 from ${sql.table(t.name)} where user_id = ${tenantId})`,
    ),
    sql` union all `,
  )}`.execute(db);
  const { funds } = await db
    .selectFrom('funds')
    .select((eb) => eb.fn.countAll<string>().as('funds'))
    .where('userId', '=', tenantId)
    .executeTakeFirstOrThrow();
  const busy = rows.map((r) => r.tbl);
  if (Number(funds) > 1) busy.push('funds');
  const first = busy.sort((a, b) => (a === 'contacts' ? -1 : b === 'contacts' ? 1 : a.localeCompare(b)))[0];
  if (first) throw conflict(NOT_NEW(first.replace(/_/g, ' '), busy.length - 1));
}
