import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type Db } from '@lampstand/db';
import type { Kysely } from 'kysely';
import { CHILD_TABLES, SECRET_COLUMNS, SKIPPED_TABLES, looksSecret } from './catalogue.js';

/** A church table as the export writes it: its columns (secrets left out) and the key it is ordered by. */
export interface ExportTable {
  name: string;
  columns: { name: string; type: string }[];
  /** The primary key's columns (rows are written in its order), or every column when it has none. */
  orderBy: string[];
  /** Secret columns left out of this table. */
  leftOut: string[];
  /** A table without a church column: its rows are the church's through this reference to a parent row. */
  parent?: { table: string; column: string };
}

/**
 * Every table with a `user_id` church column, read from the catalogue at run time, so a table a
 * later migration adds is exported without a change here (its secret-looking columns left out),
 * and the child tables of `CHILD_TABLES`.
 */
export async function churchTables(db: Db): Promise<ExportTable[]> {
  const { rows: columns } = await sql<{ tbl: string; col: string; typ: string }>`
    select c.table_name as tbl, c.column_name as col,
      case when c.data_type = 'ARRAY' then 'array' when c.data_type = 'USER-DEFINED' then c.udt_name else c.data_type end as typ
    from information_schema.columns c
    join information_schema.tables t
      on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
    where c.table_schema = 'public'
      and (exists (select 1 from information_schema.columns u
        where u.table_schema = 'public' and u.table_name = c.table_name and u.column_name = 'user_id')
        or c.table_name = any(${Object.keys(CHILD_TABLES)}::text[]))
    order by c.table_name, c.ordinal_position`.execute(db);
  const { rows: keys } = await sql<{ tbl: string; col: string }>`
    select cl.relname as tbl, a.attname as col
    from pg_index i
    join pg_class cl on cl.oid = i.indrelid
    join pg_namespace n on n.oid = cl.relnamespace and n.nspname = 'public'
    join pg_attribute a on a.attrelid = cl.oid and a.attnum = any(i.indkey)
    where i.indisprimary
    order by cl.relname, array_position(i.indkey::int2[], a.attnum)`.execute(db);
  const tables = new Map<string, ExportTable>();
  for (const { tbl, col, typ } of columns) {
    if (SKIPPED_TABLES[tbl] !== undefined) continue;
    let table = tables.get(tbl);
    if (!table) {
      const parent = CHILD_TABLES[tbl];
      tables.set(tbl, (table = { name: tbl, columns: [], orderBy: [], leftOut: [], ...(parent ? { parent } : {}) }));
    }
    if (SECRET_COLUMNS[tbl]?.includes(col) || looksSecret(col)) table.leftOut.push(col);
    else table.columns.push({ name: col, type: typ });
  }
  for (const { tbl, col } of keys) tables.get(tbl)?.orderBy.push(col);
  for (const table of tables.values()) if (table.orderBy.length === 0) table.orderBy = table.columns.map((c) => c.name);
  return [...tables.values()];
}

/** Rows read per round trip of the cursor. */
const CHUNK_ROWS = 500;

/**
 * The church's rows of `table`, `CHUNK_ROWS` at a time through a server-side cursor (memory stays
 * flat however large the table), each row its values in `table.columns` order. Scoped twice: `db`
 * acts as the church (row-level security) and the query names its `user_id`, or its parent's.
 */
export async function* churchRows(db: Db, tenantId: number, table: ExportTable): AsyncGenerator<unknown[][]> {
  // Any table, by name from the catalogue: aliased c0, c1, … so the camelCase plugin leaves the keys alone.
  let query = (db as unknown as Kysely<Record<string, Record<string, unknown>>>)
    .selectFrom(table.name)
    .select(table.columns.map((c, i) => sql.ref(c.name).as(`c${i}`)))
    .where(
      table.parent
        ? sql<boolean>`${sql.ref(table.parent.column)} in (select id from ${sql.table(table.parent.table)} where user_id = ${tenantId})`
        : sql<boolean>`user_id = ${tenantId}`,
    );
  for (const column of table.orderBy) query = query.orderBy(sql.ref(column));
  let chunk: unknown[][] = [];
  for await (const row of query.stream(CHUNK_ROWS)) {
    chunk.push(table.columns.map((_, i) => (row as Record<string, unknown>)[`c${i}`]));
    if (chunk.length === CHUNK_ROWS) {
      yield chunk;
      chunk = [];
      await nextTurn();
    }
  }
  if (chunk.length > 0) yield chunk;
}
