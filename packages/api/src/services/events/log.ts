import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Db, type Row } from '@lampstand/db';
import type { RawBuilder } from 'kysely';

/**
 * How the event log is read in order without its writers waiting on each other.
 *
 * Every event keeps the transaction that wrote it (`events.xid`, pg_current_xact_id() as the
 * column's default: the transaction's 64-bit id, which grows in the order transactions first
 * write). Readers follow the log in the order (xid, id) and see only **settled** events: those
 * whose transaction id is below the reading statement's horizon (`event_log_horizon()`, migration
 * 0173): the oldest transaction of this database still running in the statement's snapshot, or
 * the snapshot's xmax when none is. The argument that nothing is skipped:
 *
 * - Every transaction of this database with an id below the horizon has ended, committed or
 *   rolled back, so the set of settled events below a given horizon never grows again: no event
 *   written later can have such an id (a transaction's id is taken before it writes, new ids are
 *   larger, and the transactions still running below it are other databases', which never write
 *   here), and everything in it that committed is visible to the snapshot.
 * - A reader that has read, in (xid, id) order, every settled event up to position P has therefore
 *   read everything that will ever sit at or below P: an event still in flight has an xid at or
 *   above the horizon, hence above every settled position, and lands after P when it commits. So a
 *   cursor (xid, id) only moves forward and never passes an event that appears later.
 *
 * A running transaction counts as another database's only when the server's activity shows it on a
 * backend of another database; one it cannot place (ended since the snapshot, another login's
 * that the function may not see, a prepared one) counts as this database's, so the horizon is
 * never later than it may be. The snapshot's own xmin would do too, but transaction ids are the
 * server's: any long write transaction in any database of the server would hold this one's
 * readers back.
 *
 * Paging by id alone within the settled events would not do: a transaction that took its xid
 * early (an import batch writing contacts first) may take its event ids after a later
 * transaction's, so a settled event can have a larger id than one still in flight. The id only
 * orders the events of one transaction.
 *
 * The order is the order in which transactions took their ids, not strictly the order of their
 * commits; within a transaction it is the order of the events. What readers rely on is that it is
 * fixed and that every event gets a place in it once.
 *
 * The cost: any transaction of this database that has taken an id holds back, until it ends, the
 * events of every transaction that took one later, in every church. Readers (webhooks, journeys'
 * triggers, `GET /api/events`) are late by at most the longest write transaction running at the
 * time: a fraction of a second for the app's own work (an import batch of 1,000 rows, a group of
 * sends), longer while one big transaction runs (moving a whole church in writes it in one).
 * Read-only transactions take no id and hold nothing back. A person's Activity timeline reads
 * newest first by id without this rule: it shows what has committed at once.
 */

/** A place in the log: the transaction that wrote an event (xid8, as text) and the event's id. */
export interface LogPosition {
  xid: string;
  id: number;
}

/** Before the first event (those written before the log kept transactions sit at xid 0). */
export const LOG_START: LogPosition = { xid: '0', id: 0 };

/** A position as SQL: values, or the columns of a cursor row. */
type PositionSql = LogPosition | { xid: RawBuilder<unknown>; id: RawBuilder<unknown> };

function positionSql(p: PositionSql): { xid: RawBuilder<unknown>; id: RawBuilder<unknown> } {
  return typeof p.xid === 'string'
    ? { xid: sql`${p.xid}::xid8`, id: sql`${(p as LogPosition).id}::bigint` }
    : (p as { xid: RawBuilder<unknown>; id: RawBuilder<unknown> });
}

/**
 * The condition every reader of the log uses: event `e` (an alias) is the church's, after `after`,
 * and settled (below the statement's horizon: see above; evaluated once per statement). One index serves it
 * (events_church_xid_idx: user_id, xid, id).
 */
export function settledAfter(e: string, church: number | RawBuilder<unknown>, after: PositionSql): RawBuilder<boolean> {
  const p = positionSql(after);
  const col = (c: string) => sql.ref(`${e}.${c}`);
  return sql<boolean>`${col('user_id')} = ${church} and (${col('xid')}, ${col('id')}) > (${p.xid}, ${p.id})
    and ${col('xid')} < (select event_log_horizon())`;
}

/** The log order, for `order by`. */
export const logOrder = (e: string) => sql`${sql.ref(`${e}.xid`)}, ${sql.ref(`${e}.id`)}`;

/** SQL: the position of the church's last settled event after `after` (no row when there is none). */
export function lastSettled(church: number | RawBuilder<unknown>, after: PositionSql = LOG_START): RawBuilder<unknown> {
  return sql`select l.xid, l.id from events l where ${settledAfter('l', church, after)}
    order by l.xid desc, l.id desc limit 1`;
}

/** Where a reader starts that should see only what happens from now on: after every settled event. */
export async function logEnd(db: Db, tenantId: number): Promise<LogPosition> {
  const { rows } = await sql<{ xid: string; id: number }>`
    select x.xid::text as xid, x.id from (${lastSettled(tenantId)}) x`.execute(db);
  return rows[0] ?? LOG_START;
}

/**
 * An update's values that move a cursor row (`last_event_xid`, `last_event_id`: webhook endpoints,
 * journeys' trigger cursors) to `to`, unless it is there or further on already: never back.
 */
export function laterCursor(to: LogPosition) {
  const later = sql<boolean>`(${to.xid}::xid8, ${to.id}::bigint) > (last_event_xid, last_event_id)`;
  return {
    lastEventXid: sql<string>`case when ${later} then ${to.xid}::xid8 else last_event_xid end`,
    lastEventId: sql<number>`case when ${later} then ${to.id}::bigint else last_event_id end`,
  };
}

/** An event as the log's readers get it: its columns and its transaction. */
export type LogEvent = Pick<
  Row<'events'>,
  'id' | 'type' | 'version' | 'occurredAt' | 'contactId' | 'actorKind' | 'actorId' | 'payload'
> & { xid: string };

/**
 * A church's settled events after a position, in log order: at most `limit`, of `types` when given;
 * and `end`, where a reader that has dealt with them puts its cursor: after the last when the page
 * is full, else after every settled event (those of other types too), all from one snapshot.
 *
 * `after` may be an event's id (`GET /api/events?after=`): the position of that event. When the
 * church has no such event (deleted by retention, or an id from elsewhere), the page starts at the
 * oldest transaction that wrote a later id, so nothing after it is skipped (some events may come
 * again).
 */
export async function readLog(
  db: Db,
  tenantId: number,
  input: { after: LogPosition | { eventId: number }; types?: readonly string[]; limit: number },
): Promise<{ events: LogEvent[]; end: LogPosition | null }> {
  let after: PositionSql;
  if ('eventId' in input.after && input.after.eventId > 0) {
    const id = input.after.eventId;
    after = {
      xid: sql`coalesce(
        (select c.xid from events c where c.id = ${id} and c.user_id = ${tenantId}),
        (select c.xid from events c where c.user_id = ${tenantId} and c.id > ${id} order by c.xid limit 1))`,
      id: sql`${id}::bigint`,
    };
  } else after = 'eventId' in input.after ? LOG_START : input.after;
  const types = input.types?.length ? sql`and e.type = any(${[...input.types]}::text[])` : sql``;
  // One statement, one snapshot: the page and the end are read against the same settled events.
  const { rows } = await sql<Omit<LogEvent, 'id'> & { id: number | null; endXid: string | null; endId: number | null }>`
    with page as (
      select e.id, e.xid, e.type, e.version, e.occurred_at, e.contact_id, e.actor_kind, e.actor_id, e.payload
      from events e where ${settledAfter('e', tenantId, after)} ${types}
      order by ${logOrder('e')} limit ${input.limit}
    ),
    last as (${lastSettled(tenantId, after)})
    select (select xid from last) as end_xid, (select id from last) as end_id, page.*
    from (select 1) one left join page on true
    order by page.xid, page.id`.execute(db);
  const events = rows
    .filter((r): r is typeof r & { id: number } => r.id !== null)
    .map(({ endXid: _endXid, endId: _endId, ...e }) => e);
  const last = events.at(-1);
  const settledEnd = rows[0]?.endXid != null ? { xid: rows[0].endXid, id: Number(rows[0].endId) } : null;
  return { events, end: last && events.length >= input.limit ? { xid: last.xid, id: last.id } : settledEnd };
}

/**
 * Waits until every event committed before the call is settled: the transactions of this database
 * that had ids when it was called have all ended (for tests and benchmarks that read the log right after writing to
 * it; call it outside a transaction). Throws after `timeoutMs`.
 */
export async function eventsSettled(db: Db, opts: { timeoutMs?: number } = {}): Promise<void> {
  const { rows } = await sql<{ x: string }>`select pg_snapshot_xmax(pg_current_snapshot())::text as x`.execute(db);
  const target = rows[0]!.x;
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    const { rows: now } = await sql<{ settled: boolean }>`
      select event_log_horizon() >= ${target}::xid8 as settled`.execute(db);
    if (now[0]?.settled) return;
    if (Date.now() > deadline) throw new Error('A transaction held the event log back for too long');
    await sleep(5);
  }
}
