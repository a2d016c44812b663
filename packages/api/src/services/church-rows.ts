import type { Database, Db, Row, TableName } from '@lampstand/db';
import { notFound } from '../errors.js';

/** The tables of a church's own rows: each row has an `id` and the `userId` of the church owning it. */
export type ChurchTable = {
  [T in TableName]: Database[T] extends { id: unknown; userId: unknown } ? T : never;
}[TableName];

/**
 * Deletes the church's row `id` of `table`, in one statement scoped to the church: an id that is
 * not the church's (another church's, or none) is `missing`, a 404 with that message.
 */
export async function deleteChurchRow(
  db: Db,
  tenantId: number,
  input: { table: ChurchTable; id: number; missing: string },
): Promise<{ id: number }> {
  const row = await db
    .deleteFrom(input.table)
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .returning('id')
    .executeTakeFirst();
  if (!row) throw notFound(input.missing);
  return { id: input.id };
}

/**
 * The church's row `id` of `table` (every column), read in one statement scoped to the church: an
 * id that is not the church's is `missing`, a 404 with that message. `db` may be a transaction.
 */
export async function findChurchRow<T extends ChurchTable>(
  db: Db,
  tenantId: number,
  input: { table: T; id: number; missing: string },
): Promise<Row<T>> {
  // Read as any church table: Kysely does not resolve a query over a table type parameter.
  const table: ChurchTable = input.table;
  const row = await db
    .selectFrom(table)
    .selectAll()
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!row) throw notFound(input.missing);
  // A row of any church table, as read; it is the row of the table asked for.
  return row as unknown as Row<T>;
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
  const row = await db
    .selectFrom(input.table)
    .select('id')
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!row) throw notFound(input.missing);
}
