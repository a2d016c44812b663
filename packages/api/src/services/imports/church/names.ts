import { sql, type Db } from '@lampstand/db';
import type { FileStorage } from '../../../providers/storage.js';
import type { ReadExport } from '../../exports/read.js';
import { UNIQUE_NAMES } from './rules.js';

/**
 * Names the whole web has one of, and uploaded files: the two things an export's rows cannot take
 * as they are while the old church is still there.
 */

type Row = Record<string, unknown>;

/** Values of `column` in `table` (any church's) starting like one of `bases`. */
async function taken(db: Db, table: string, column: string, bases: string[]): Promise<Set<string>> {
  if (bases.length === 0) return new Set();
  const { rows } = await sql<{ v: string }>`
    select ${sql.ref(column)} as v from ${sql.table(table)}
    where ${sql.ref(column)} = any(${bases}::text[])
      or ${sql.ref(column)} like any(${bases.map((b) => `${b.replace(/[\\%_]/g, '\\$&')}-%`)}::text[])`.execute(db);
  return new Set(rows.map((r) => r.v));
}

/**
 * Landing page addresses, QR short codes and the public handle: kept when no church uses them,
 * else numbered (`easter-2`). The church's earlier handles are kept only where they are free.
 */
export async function freeNames(db: Db, table: string, rows: Row[]): Promise<Row[]> {
  if (table === 'church_handle_redirects') {
    const handles = rows.map((r) => String(r.handle));
    const used = new Set([
      ...(await taken(db, 'church_profiles', 'handle', handles)),
      ...(await taken(db, 'church_handle_redirects', 'handle', handles)),
    ]);
    return rows.filter((r) => !used.has(String(r.handle)));
  }
  const column = UNIQUE_NAMES[table];
  if (!column) return rows;
  const bases = rows.map((r) => String(r[column]));
  const used = await taken(db, table, column, bases);
  if (table === 'church_profiles')
    for (const h of await taken(db, 'church_handle_redirects', 'handle', bases)) used.add(h);
  for (const r of rows) {
    const base = String(r[column]);
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}-${n}`;
    used.add(name);
    r[column] = name;
  }
  return rows;
}

/**
 * The uploaded files' move: each key from the old church's folder (`u12/…`) to the new one's, the
 * same change made in every address written in the rows (logos, images in pages and emails), and
 * the files copied into the app's storage.
 */
export function uploadMoves(storage: FileStorage | null, read: ReadExport, church: { from: number; to: number }) {
  const from = `u${church.from}/`;
  const to = `u${church.to}/`;
  const key = (old: string) =>
    old.startsWith(from) ? to + old.slice(from.length) : `${to}moved-${old.replace(/\//g, '-')}`;
  const prefixes = new Set<string>();
  const uploads = read.tables.uploads ?? [];
  for (const u of uploads)
    for (const [k, url] of [
      [u.storage_key, u.url],
      [u.thumbnail_key, u.thumbnail_url],
    ])
      if (typeof k === 'string' && typeof url === 'string' && url.endsWith(k) && k.startsWith(from))
        prefixes.add(url.slice(0, url.length - k.length));
  if (storage) prefixes.add(storage.urlFor(from).slice(0, -from.length));
  const pairs = [...prefixes].filter(Boolean).map((p) => [p + from, p + to] as const);
  return {
    key,
    text: (s: string) => (church.from === church.to ? s : pairs.reduce((t, [a, b]) => t.split(a).join(b), s)),
    async copy(): Promise<number> {
      if (!storage) return 0;
      let copied = 0;
      for (const u of uploads)
        for (const k of [u.storage_key, u.thumbnail_key]) {
          const body = typeof k === 'string' ? read.files[`files/${k}`] : undefined;
          if (!body) continue;
          const type = String(k).endsWith('.webp')
            ? 'image/webp'
            : typeof u.content_type === 'string'
              ? u.content_type
              : 'application/octet-stream';
          await storage.put(key(String(k)), Buffer.from(body), type);
          copied++;
        }
      return copied;
    },
  };
}
