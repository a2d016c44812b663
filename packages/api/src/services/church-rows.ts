import type { Kysely } from 'kysely';
import type { Database, Db, Row, TableName } from '@lampstand/db';
import { notFound } from '../errors.js';

/** The tables of a church's own rows: each row has an `id` and the `userId` of the church owning it. */
export type ChurchTable = {
  [T in TableName]: Database[T] extends { id: unknown; userId: unknown } ? T : never;
}[TableName];

/**
 * Every church table seen as one table of `id`, `userId` and other columns. Kysely's types over the
 * union of all church tables cost the type checker (and the typed lint) about 15 s per run for these
 * three queries; the queries are the same for every table, and the rows are cast back to the table
 * asked for.
 */
type AnyChurchDb = Kysely<{ church_table: { id: number; userId: number; [column: string]: unknown } }>;
const anyChurchTable = (db: Db) => db as unknown as AnyChurchDb;
const asAnyTable = (table: ChurchTable) => table as string as 'church_table';

/**
 * Deletes the church's row `id` of `table`, in one statement scoped to the church: an id that is
 * not the church's (another church's, or none) is `missing`, a 404 with that message.
 */
export async function deleteChurchRow(
  db: Db,
  tenantId: number,
  input: { table: ChurchTable; id: number; missing: string },
): Promise<{ id: number }> {
  const row = await anyChurchTable(db)
    .deleteFrom(asAnyTable(input.table))
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .returning('id')
    .executeTakeFirst();
  if (!row) throw notFound(input.missing);
  return { id: input.id };
}

/**
 * The church's row `id` of `table`, read in one statement scoped to the church: every column, or
 * only `columns`; locked for the rest of the transaction with `forUpdate`. An id that is not the
 * church's is `missing`, a 404 with that message. `db` may be a transaction.
 */
export async function findChurchRow<T extends ChurchTable, C extends keyof Row<T> & string = keyof Row<T> & string>(
  db: Db,
  tenantId: number,
  input: { table: T; id: number; missing: string; columns?: readonly C[]; forUpdate?: boolean },
): Promise<Pick<Row<T>, C>> {
  // Read as any church table: Kysely does not resolve a query over a table type parameter.
  const query = anyChurchTable(db)
    .selectFrom(asAnyTable(input.table))
    .where('id', '=', input.id)
    .where('userId', '=', tenantId);
  const selected = input.columns ? query.select(input.columns as readonly string[] as 'id'[]) : query.selectAll();
  const row = await (input.forUpdate ? selected.forUpdate() : selected).executeTakeFirst();
  if (!row) throw notFound(input.missing);
  // A row of any church table, as read; it holds the columns asked for of the table asked for.
  return row as unknown as Pick<Row<T>, C>;
}

/**
 * Checks that `id` is the church's row of `table`, in one statement scoped to the church: an id that
 * is not the church's is `missing`, a 404 with that message. `db` may be a transaction.
 */
export async function assertChurchRow(
  db: Db,
  tenantId: number,
  input: { table: ChurchTable; id: number; missing: string },
): Promise<void> {
  const row = await anyChurchTable(db)
    .selectFrom(asAnyTable(input.table))
    .select('id')
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!row) throw notFound(input.missing);
}
