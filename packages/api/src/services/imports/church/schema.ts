import { sql, type Db } from '@lampstand/db';
import { badRequest } from '../../../errors.js';
import { churchTables } from '../../exports/tables.js';
import type { ReadExport } from '../../exports/read.js';
import { isChurchSingleton } from './check.js';
import { IMPLICIT_REFS, LOCAL_TO_SERVER, NOT_MOVED } from './rules.js';

/**
 * The shape of the database an export goes into: each table's columns as they are now, the
 * references between the church's tables (foreign keys, and the columns `IMPLICIT_REFS` names),
 * and an order to write the tables in so a row's references are there before it.
 */

export interface LiveColumn {
  type: string;
  nullable: boolean;
  hasDefault: boolean;
  /** Computed by the database from other columns (never written). */
  generated: boolean;
}

export interface TablePlan {
  name: string;
  /** The export's columns this database still has, in the export's order. */
  columns: { name: string; type: string }[];
  live: Map<string, LiveColumn>;
  /** Column → the table its ids are of (`users` for the church's login). */
  refs: Map<string, string>;
  /** References to a table written later (a cycle): written empty, then filled in. */
  deferred: Set<string>;
  /** Whether its rows have a serial `id` that gets a new value. */
  hasId: boolean;
  /** One row per church (its key is the church): the new church's own row makes way. */
  singleton: boolean;
}

/** The tables of `read` that move, in an order that writes each row's references first. */
export async function planTables(db: Db, read: ReadExport): Promise<TablePlan[]> {
  const church = new Map((await churchTables(db)).map((t) => [t.name, t]));
  // Aliases without underscores: the camelCase plugin would rename them.
  const { rows: cols } = await sql<{
    tbl: string;
    col: string;
    nullable: boolean;
    defaulted: boolean;
    generated: boolean;
    typ: string;
  }>`
    select c.table_name as tbl, c.column_name as col, c.is_nullable = 'YES' as nullable,
      c.is_generated = 'ALWAYS' as generated,
      (c.column_default is not null or c.is_identity = 'YES') as defaulted,
      case when c.data_type = 'ARRAY' then 'array' when c.data_type = 'USER-DEFINED' then c.udt_name else c.data_type end as typ
    from information_schema.columns c where c.table_schema = 'public'`.execute(db);
  const live = new Map<string, Map<string, LiveColumn>>();
  for (const c of cols) {
    if (!live.has(c.tbl)) live.set(c.tbl, new Map());
    live.get(c.tbl)!.set(c.col, { type: c.typ, nullable: c.nullable, hasDefault: c.defaulted, generated: c.generated });
  }
  // A foreign key's column besides the church's (`(child_id, user_id)` names a child of the same church).
  const { rows: fks } = await sql<{ tbl: string; col: string; ref: string }>`
    select cl.relname as tbl, min(a.attname) as col, rc.relname as ref
    from pg_constraint c
    join pg_class cl on cl.oid = c.conrelid
    join pg_class rc on rc.oid = c.confrelid
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any(c.conkey) and a.attname <> 'user_id'
    where c.contype = 'f' and cl.relnamespace = 'public'::regnamespace
    group by c.oid, cl.relname, rc.relname
    having count(*) = 1`.execute(db);

  const plans = new Map<string, TablePlan>();
  for (const t of read.manifest.tables) {
    if (NOT_MOVED[t.name] !== undefined) continue;
    const now = live.get(t.name);
    if (!church.has(t.name) || !now)
      throw badRequest(
        `The export has a table this Lampstand does not know (${t.name}): it was made by a newer Lampstand.`,
        'file',
      );
    const refs = new Map<string, string>();
    for (const fk of fks) if (fk.tbl === t.name) refs.set(fk.col, fk.ref);
    plans.set(t.name, {
      name: t.name,
      columns: t.columns.filter(
        (c) => now.has(c.name) && !now.get(c.name)!.generated && !LOCAL_TO_SERVER[t.name]?.includes(c.name),
      ),
      live: now,
      refs,
      deferred: new Set(),
      hasId: now.has('id') && church.get(t.name)!.orderBy.join() === 'id',
      singleton: isChurchSingleton(church.get(t.name)!.orderBy),
    });
  }
  return writeOrder(plans);
}

/** Depth first over the foreign keys; a reference back into a table being visited is deferred. */
function writeOrder(plans: Map<string, TablePlan>): TablePlan[] {
  const order: TablePlan[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (p: TablePlan) => {
    state.set(p.name, 'visiting');
    for (const [col, ref] of p.refs) {
      const target = plans.get(ref);
      if (!target || target === p) {
        if (target === p) p.deferred.add(col);
        continue;
      }
      const s = state.get(ref);
      if (s === 'visiting') p.deferred.add(col);
      else if (!s) visit(target);
    }
    state.set(p.name, 'done');
    order.push(p);
  };
  for (const p of [...plans.values()].sort((a, b) => a.name.localeCompare(b.name))) if (!state.has(p.name)) visit(p);
  return order;
}

/** The table a reference column of `plan` points at for this row (null: none, the value is kept). */
export function refTarget(plan: TablePlan, column: string, row: Record<string, unknown>): string | null | undefined {
  const fk = plan.refs.get(column);
  if (fk) return fk;
  const implicit = IMPLICIT_REFS[plan.name]?.[column];
  if (implicit === undefined) return undefined;
  return typeof implicit === 'string' ? implicit : implicit(row);
}
