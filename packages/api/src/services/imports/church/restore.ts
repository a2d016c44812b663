import crypto from 'node:crypto';
import { sealSecret, sql, type Db } from '@lampstand/db';
import { badRequest } from '../../../errors.js';
import type { FileStorage } from '../../../providers/storage.js';
import { SKIPPED_TABLES } from '../../exports/catalogue.js';
import type { ReadExport } from '../../exports/read.js';
import { newWebhookSecret } from '../../webhooks/signing.js';
import { assertNewChurch } from './check.js';
import { remapJson, type Lookup } from './remap.js';
import { CLEARED, FRESH_TOKENS, HELD_BACK, NOT_MOVED, PREFIXED_KEYS, movedKey } from './rules.js';
import { planTables, refTarget, type TablePlan } from './schema.js';
import { freeNames, uploadMoves } from './names.js';

/**
 * Writes a Lampstand export into a new church, in the caller's transaction (all or nothing): every
 * row with a new id, every reference through the ids' mapping, the uploaded files copied, and the
 * decisions of rules.ts applied. Writes no event: the activity log comes back as it was, and the
 * journeys' and webhooks' cursors start after it, so nothing reacts to the rows moved in.
 */

export interface RestoreResult {
  tables: { name: string; rows: number }[];
  files: number;
}

type Row = Record<string, unknown>;

const JSON_TYPES = new Set(['json', 'jsonb']);

function freshToken(table: string, column: string): string {
  if (table === 'webhook_endpoints') return sealSecret(newWebhookSecret());
  const token = crypto.randomBytes(32).toString('base64url');
  return column.endsWith('_hash') ? crypto.createHash('sha256').update(token).digest('hex') : token;
}

/** The church id the export was made from (every row names it). */
function exportedChurch(read: ReadExport): number {
  for (const rows of Object.values(read.tables)) {
    const id = rows[0]?.user_id;
    if (typeof id === 'number') return id;
  }
  throw badRequest('The export has no rows: there is nothing to move in.', 'file');
}

async function newIds(db: Db, table: string, n: number): Promise<number[]> {
  if (n === 0) return [];
  const { rows } = await sql<{ id: string }>`
    select nextval(pg_get_serial_sequence(${table}, 'id'))::text as id from generate_series(1, ${n})`.execute(db);
  return rows.map((r) => Number(r.id));
}

async function insertRows(db: Db, table: string, columns: string[], rows: unknown[][]) {
  const per = Math.max(1, Math.floor(30_000 / Math.max(1, columns.length)));
  for (let i = 0; i < rows.length; i += per) {
    // The ids were taken from the table's sequence above; an identity column takes them only when told.
    await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) overriding system value values ${sql.join(
      rows.slice(i, i + per).map((r) => sql`(${sql.join(r)})`),
    )}`.execute(db);
  }
}

export async function restoreChurch(
  db: Db,
  deps: { storage: FileStorage | null },
  input: { tenantId: number; read: ReadExport; now?: Date },
): Promise<RestoreResult> {
  const { tenantId, read } = input;
  const now = input.now ?? new Date();
  await assertNewChurch(db, tenantId);
  const plans = await planTables(db, read);
  const oldChurch = exportedChurch(read);

  const maps = new Map<string, Map<number, number>>();
  for (const p of plans) {
    if (!p.hasId) continue;
    const rows = read.tables[p.name] ?? [];
    const ids = await newIds(db, p.name, rows.length);
    maps.set(p.name, new Map(rows.map((r, i) => [Number(r.id), ids[i]!])));
  }
  const lookup: Lookup = (table, old) =>
    table === 'users' ? (old === oldChurch ? tenantId : undefined) : maps.get(table)?.get(old);
  const files = uploadMoves(deps.storage, read, { from: oldChurch, to: tenantId });

  // Sign-up's own rows (settings, the General fund) make way for the export's.
  for (const p of plans)
    if (p.name === 'funds' || p.singleton)
      await sql`delete from ${sql.table(p.name)} where user_id = ${tenantId}`.execute(db);
  const church = new Set([...plans.map((p) => p.name), ...Object.keys(SKIPPED_TABLES), ...Object.keys(NOT_MOVED)]);

  const deferred: { table: string; column: string; id: number; value: number }[] = [];
  const written: RestoreResult['tables'] = [];
  for (const p of plans) {
    const source = read.tables[p.name] ?? [];
    const rows = await rowsFor(db, p, source, { tenantId, now, lookup, church, files, deferred });
    // Secret columns the export left out that a row must have (and any other secret-looking one): new values.
    const given = new Set(p.columns.map((c) => c.name));
    const fresh = [...p.live]
      .filter(
        ([c, l]) =>
          !given.has(c) && (FRESH_TOKENS[p.name]?.includes(c) || (!l.nullable && !l.hasDefault && !l.generated)),
      )
      .map(([c]) => c);
    const columns = [...p.columns.map((c) => c.name), ...fresh];
    await insertRows(
      db,
      p.name,
      columns,
      rows.map((r) => [
        ...p.columns.map((c) => encode(r[c.name], p.live.get(c.name)!.type)),
        ...fresh.map((c) => freshToken(p.name, c)),
      ]),
    );
    written.push({ name: p.name, rows: rows.length });
  }
  for (const d of deferred)
    await sql`update ${sql.table(d.table)} set ${sql.ref(d.column)} = ${d.value} where id = ${d.id}`.execute(db);

  // The journeys and webhooks start reading the activity log after the events moved in: they are
  // this transaction's, so the cursors go after this transaction's last (events/log.ts).
  const { rows: last } = await sql<{ xid: string; id: number }>`
    select pg_current_xact_id() as xid, coalesce(max(id), 0) as id from events
    where user_id = ${tenantId} and xid = pg_current_xact_id()`.execute(db);
  const end = last[0]!;
  await sql`update webhook_endpoints set last_event_xid = ${end.xid}::xid8, last_event_id = ${end.id}
    where user_id = ${tenantId}`.execute(db);
  await sql`insert into journey_trigger_cursors (user_id, last_event_xid, last_event_id)
    values (${tenantId}, ${end.xid}::xid8, ${end.id})
    on conflict (user_id) do update set last_event_xid = excluded.last_event_xid, last_event_id = excluded.last_event_id`.execute(
    db,
  );
  const copied = await files.copy();
  return { tables: written, files: copied };
}

/** A value as the insert takes it: JSON columns as their text. */
export function encode(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (JSON_TYPES.has(type)) return JSON.stringify(value);
  return value;
}

async function rowsFor(
  db: Db,
  p: TablePlan,
  source: Row[],
  ctx: {
    tenantId: number;
    now: Date;
    lookup: Lookup;
    church: Set<string>;
    files: { key: (k: string) => string; text: (s: string) => string };
    deferred: { table: string; column: string; id: number; value: number }[];
  },
): Promise<Row[]> {
  const cleared = new Set(CLEARED[p.name] ?? []);
  const prefixed = new Set(PREFIXED_KEYS[p.name] ?? []);
  const campaignTable = (r: Row) =>
    p.name === 'events' || p.name === 'webhook_deliveries'
      ? String(r.type).startsWith('sms.')
        ? 'sms_campaigns'
        : 'email_campaigns'
      : null;
  const out: Row[] = [];
  for (const original of source) {
    const r: Row = { ...original };
    HELD_BACK[p.name]?.hold(r, ctx.now);
    for (const c of p.columns) {
      const v = r[c.name];
      const live = p.live.get(c.name)!;
      if (c.name === 'user_id') r[c.name] = ctx.tenantId;
      else if (c.name === 'id' && p.hasId) r[c.name] = ctx.lookup(p.name, Number(v));
      else if (cleared.has(c.name)) r[c.name] = null;
      else if (v === null || v === undefined) r[c.name] = null;
      else if (prefixed.has(c.name)) r[c.name] = movedKey(ctx.tenantId, v as string);
      else if (p.name === 'uploads' && (c.name === 'storage_key' || c.name === 'thumbnail_key'))
        r[c.name] = ctx.files.key(v as string);
      else {
        const target = refTarget(p, c.name, original);
        if (target !== undefined) {
          r[c.name] = target === null ? (live.nullable ? null : v) : follow(v, target, live.nullable, ctx);
          if (p.deferred.has(c.name) && typeof r[c.name] === 'number') {
            ctx.deferred.push({ table: p.name, column: c.name, id: Number(r.id), value: r[c.name] as number });
            r[c.name] = null;
          }
        } else if (JSON_TYPES.has(live.type))
          r[c.name] = remapJson(v, {
            lookup: ctx.lookup,
            campaignTable: campaignTable(original),
            text: ctx.files.text,
          });
        else if (typeof v === 'string') r[c.name] = ctx.files.text(v);
      }
    }
    out.push(r);
  }
  return freeNames(db, p.name, out);
}

/**
 * A reference's new value: its row's new id. A reference to a row of the church that did not move
 * (deleted before the export, or of a table left behind) is emptied, or kept when the column must
 * have one; a shared row (a marketing template, an inbound text) is named as it was.
 */
function follow(v: unknown, target: string, nullable: boolean, ctx: { lookup: Lookup; church: Set<string> }): unknown {
  if (Array.isArray(v))
    return v.flatMap((x) => {
      const m = typeof x === 'number' ? ctx.lookup(target, x) : undefined;
      return m === undefined ? [] : [m];
    });
  if (typeof v !== 'number') return v;
  const mapped = ctx.lookup(target, v);
  if (mapped !== undefined) return mapped;
  if (target !== 'users' && !ctx.church.has(target)) return v;
  return nullable ? null : v;
}
