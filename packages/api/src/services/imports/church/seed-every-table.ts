import { sql, type Db } from '@lampstand/db';
import { churchTables } from '../../exports/tables.js';
import type { ReadExport } from '../../exports/read.js';
import { encode } from './restore.js';
import { planTables, refTarget } from './schema.js';

/**
 * For the round-trip test: rows in every table the export writes, made from the database's own
 * description (each required column a value of its type, a checked column its first allowed value,
 * every reference the row of its table seeded before), so a table a later migration adds is
 * seeded too or named in `failed`. `overrides` gives a table's values where the generic ones will
 * not do (or to put ids inside JSON).
 */

type Row = Record<string, unknown>;

export async function seedEveryTable(
  db: Db,
  tenantId: number,
  overrides: (ids: Map<string, number[]>) => Record<string, Row[]>,
): Promise<{ ids: Map<string, number[]>; failed: string[] }> {
  const tables = await churchTables(db);
  const fake = {
    manifest: { tables: tables.map((t) => ({ name: t.name, file: '', rows: 0, columns: t.columns, leftOut: [] })) },
  } as unknown as ReadExport;
  const plans = await planTables(db, fake);
  const { rows: checks } = await sql<{ tbl: string; def: string }>`
    select conrelid::regclass::text as tbl, pg_get_constraintdef(oid) as def
    from pg_constraint where contype = 'c' and connamespace = 'public'::regnamespace`.execute(db);
  const ids = new Map<string, number[]>();
  const failed: string[] = [];
  for (const p of plans) {
    const given = overrides(ids)[p.name];
    const rows = given ?? [{}];
    for (const over of rows) {
      const row: Row = p.live.has('user_id') ? { user_id: tenantId } : {};
      for (const [col, live] of p.live) {
        if (col === 'user_id' || col in over || live.generated) continue;
        const target = refTarget(p, col, { ...over, channel: 'email', kind: 'email', actor_kind: 'user' });
        if (target) {
          const id = target === 'users' ? tenantId : ids.get(target)?.[0];
          if (id !== undefined && !p.deferred.has(col)) row[col] = live.type === 'array' ? [id] : id;
          else if (!live.nullable) row[col] = 1;
          continue;
        }
        if (live.nullable || live.hasDefault || live.generated) continue;
        row[col] = valueOf(
          col,
          live.type,
          checks.filter((c) => c.tbl === p.name).map((c) => c.def),
        );
      }
      Object.assign(row, over);
      const cols = Object.keys(row);
      try {
        const out = await sql<{
          id?: number;
        }>`insert into ${sql.table(p.name)} (${sql.join(cols.map((c) => sql.ref(c)))})
          values (${sql.join(cols.map((c) => encode(row[c], p.live.get(c)?.type ?? 'text')))})
          returning ${p.hasId ? sql`id` : sql`1 as one`}`.execute(db);
        if (p.hasId) ids.set(p.name, [...(ids.get(p.name) ?? []), Number(out.rows[0]!.id)]);
      } catch (err) {
        failed.push(`${p.name}: ${(err as Error).message}`);
      }
    }
  }
  return { ids, failed };
}

function valueOf(col: string, type: string, checks: string[]): unknown {
  const allowed = checks
    .map(
      (d) => new RegExp(`\\(${col} = ANY \\(ARRAY\\['([^']*)'`).exec(d) ?? new RegExp(`\\(${col} = '([^']*)'`).exec(d),
    )
    .find(Boolean);
  if (allowed) return allowed[1];
  if (['integer', 'bigint', 'smallint', 'numeric', 'real', 'double precision'].includes(type)) return 1;
  if (type === 'boolean') return false;
  if (type.startsWith('timestamp')) return new Date('2026-03-01T10:00:00.000Z');
  if (type === 'date') return '2026-03-01';
  if (type === 'json' || type === 'jsonb') return {};
  if (type === 'array') return [];
  if (type === 'bytea') return Buffer.from('x');
  if (type === 'inet') return '127.0.0.1';
  return `${col}-${Math.random().toString(36).slice(2, 8)}`;
}
