import { sql, type Db } from '@lampstand/db';
import type { RawBuilder } from 'kysely';

/**
 * The claim primitive of every kind of background work whose rows outlive a transaction (a send, a
 * journey visit, a webhook try, a social post): a worker claims up to N due rows with FOR UPDATE
 * SKIP LOCKED (any number of workers share a table, none takes what another is taking) and stamps
 * each with a lease and one more attempt. Every later write of that row (a renewal, its outcome, a
 * retry) is fenced: it happens only while the row still holds the lease and attempt this worker
 * stamped. A worker that dies leaves its leases to run out; then the rows are due again and another
 * worker takes them over (at least once), and should the first one come back late, its writes find
 * the fence changed and do nothing. A try that failed is released with its back-off (when it is
 * due again) or failed for good when the back-off says no more tries.
 *
 * What stays each loop's own: which rows are due, what the claim sets besides the lease (a status),
 * and what to do with a row. Its tables keep their own column names (`LeasedTable`).
 *
 * Times: `now` is the caller's clock when given (tests drive one), else the database's; stamps are
 * cut to milliseconds, so the value a JavaScript Date reads back compares equal in the fence.
 */

export interface LeasedTable {
  /** The table, as PostgreSQL names it; its key is `id`. */
  table: string;
  /** The timestamp column holding the lease; null while nobody holds the row. */
  lease: string;
  /** What the lease column holds: when the lease ends ('until'), or when it was taken ('since': it ends `leaseSeconds` later). */
  holds: 'until' | 'since';
  /** Counted up at each claim (the try's number); with the lease, the fence of every later write. */
  attempts: string;
  /** When a row whose try failed is due again. */
  retryAt: string;
}

/** A row this worker holds: the lease and the attempt its claim (or last renewal) stamped. */
export interface Lease {
  id: number;
  lease: Date;
  attempt: number;
}

export interface Claimed<R> {
  row: R;
  lease: Lease;
}

export interface ClaimQuery {
  /** Which rows are due: the loop's condition on its table, aliased `x` (and on any table it joins). */
  due: RawBuilder<unknown>;
  /** Tables the condition reads beside `x` (`join webhook_endpoints w on w.id = x.endpoint_id`). */
  join?: RawBuilder<unknown>;
  /** The order rows are taken in (`x.next_attempt_at, x.id`). */
  order: RawBuilder<unknown>;
  limit: number;
  leaseSeconds: number;
  now?: Date;
  /** Rows this worker holds already (in flight, their outcome not yet written): never claimed back by it. */
  held?: Iterable<number>;
  /** What else the claim sets (`status = 'sending'`). */
  set?: RawBuilder<unknown>;
}

/** When a row that failed is due again: milliseconds after the failed attempt (its number), or null for no more tries. */
export type Backoff = (attempt: number) => number | null;

/** `firstMs`, doubling with each attempt up to `maxMs`; no more tries after `maxAttempts`. */
export const cappedExponential =
  (o: { firstMs: number; maxMs?: number; maxAttempts: number }): Backoff =>
  (attempt) =>
    attempt >= o.maxAttempts ? null : Math.min(o.maxMs ?? Infinity, o.firstMs * 2 ** (attempt - 1));

/** A schedule of waits, one per failed attempt; no more tries after the last. */
export const afterDelays =
  (delaysMs: readonly number[]): Backoff =>
  (attempt) =>
    attempt > delaysMs.length ? null : delaysMs[attempt - 1]!;

/** The same wait after every failure, with no end (the row keeps its error meanwhile). */
export const everyMs =
  (ms: number): Backoff =>
  () =>
    ms;

/** The time a condition reads: the caller's clock, else the statement's (a stable value indexes can use). */
export const timeOf = (now?: Date) => (now ? sql<Date>`${now}::timestamptz` : sql<Date>`now()`);

/** A lease stamp: the caller's clock, else the database's at this moment. */
function stampOf(t: LeasedTable, q: { leaseSeconds: number; now?: Date }) {
  const at = q.now ? sql`${q.now}::timestamptz` : sql`clock_timestamp()`;
  return t.holds === 'until'
    ? sql<Date>`date_trunc('milliseconds', ${at} + make_interval(secs => ${q.leaseSeconds}))`
    : sql<Date>`date_trunc('milliseconds', ${at})`;
}

const col = (alias: string, column: string) => sql.ref(`${alias}.${column}`);

/** Nobody holds the row `alias` (or its holder's lease ran out): it may be claimed. */
export function leaseFree(t: LeasedTable, alias: string, q: { leaseSeconds: number; now?: Date }): RawBuilder<boolean> {
  const lease = col(alias, t.lease);
  return t.holds === 'until'
    ? sql<boolean>`(${lease} is null or ${lease} < ${timeOf(q.now)})`
    : sql<boolean>`(${lease} is null or ${lease} < ${timeOf(q.now)} - make_interval(secs => ${q.leaseSeconds}))`;
}

/** The row `alias` still holds the lease and attempt given (SQL values, e.g. columns of an unnest). */
export function fenceOn(
  t: LeasedTable,
  alias: string,
  held: { lease: RawBuilder<unknown> | Date; attempt: RawBuilder<unknown> | number },
): RawBuilder<boolean> {
  return sql<boolean>`(${col(alias, t.lease)} = ${held.lease} and ${col(alias, t.attempts)} = ${held.attempt})`;
}

/** The row, as read under a lock in the worker's own transaction, still holds the lease and attempt given. */
export const stillHeld = (held: Lease, row: { lease: Date | null; attempt: number }) =>
  row.lease?.getTime() === held.lease.getTime() && row.attempt === held.attempt;

/** Snake case to the camelCase the database handle gives result keys. */
const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function leaseOf(t: LeasedTable, row: Record<string, unknown>): Lease {
  const read = (c: string) => row[camel(c)] ?? row[c];
  return { id: Number(read('id')), lease: new Date(read(t.lease) as Date), attempt: Number(read(t.attempts)) };
}

/**
 * Claims up to `limit` due rows nobody holds, in `order`: FOR UPDATE SKIP LOCKED, a lease stamped on
 * each and one more attempt counted. The rows as they are after the claim, each with its lease.
 */
export async function claimLeased<R>(db: Db, t: LeasedTable, q: ClaimQuery): Promise<Claimed<R>[]> {
  const held = [...(q.held ?? [])];
  const { rows } = await sql<Record<string, unknown>>`
    with due as materialized (
      select x.id from ${sql.table(t.table)} x ${q.join ?? sql``}
      where (${q.due}) and ${leaseFree(t, 'x', q)}
        ${held.length > 0 ? sql`and x.id <> all(${held}::bigint[])` : sql``}
      order by ${q.order}
      limit ${q.limit}
      for update of x skip locked
    )
    update ${sql.table(t.table)} t
    set ${sql.ref(t.lease)} = ${stampOf(t, q)}, ${sql.ref(t.attempts)} = ${col('t', t.attempts)} + 1
        ${q.set ? sql`, ${q.set}` : sql``}
    from due where t.id = due.id
    returning t.*`.execute(db);
  return rows.map((row) => ({ row: row as R, lease: leaseOf(t, row) }));
}

/**
 * A new lease on a row still ours (and, with `where`, still as the caller needs it), before work that
 * starts late; null when it is not ours any more (the lease ran out and another worker took it, or it
 * was finished meanwhile). The row as it is now, with the new lease: later writes fence on that one.
 */
export async function renewLease<R>(
  db: Db,
  t: LeasedTable,
  held: Lease,
  q: { leaseSeconds: number; now?: Date; where?: RawBuilder<unknown> },
): Promise<Claimed<R> | null> {
  const { rows } = await sql<Record<string, unknown>>`
    update ${sql.table(t.table)} t set ${sql.ref(t.lease)} = ${stampOf(t, q)}
    where t.id = ${held.id} and ${fenceOn(t, 't', held)} ${q.where ? sql`and (${q.where})` : sql``}
    returning t.*`.execute(db);
  const row = rows[0];
  return row ? { row: row as R, lease: leaseOf(t, row) } : null;
}

/**
 * The row's work is done: `set` written and the lease let go, only while the row is still ours.
 * Without `set`, the row is only let go (due again at once if still due). True when it was ours.
 */
export async function finishLeased(db: Db, t: LeasedTable, held: Lease, set?: RawBuilder<unknown>): Promise<boolean> {
  const done = await sql`
    update ${sql.table(t.table)} t set ${sql.ref(t.lease)} = null ${set ? sql`, ${set}` : sql``}
    where t.id = ${held.id} and ${fenceOn(t, 't', held)}`.execute(db);
  return Number(done.numAffectedRows ?? 0) > 0;
}

/**
 * Many rows finished in one statement, each with values of its own: `values` are the columns of an
 * unnest aliased `v` (name → PostgreSQL type and one value per row), which `set` reads (`status =
 * v.status`). Each row is written only while still ours. The ids written.
 */
export async function finishLeasedMany(
  db: Db,
  t: LeasedTable,
  rows: readonly Lease[],
  q: {
    values: Record<string, { type: string; of: readonly unknown[] }>;
    set: RawBuilder<unknown>;
    where?: RawBuilder<unknown>;
  },
): Promise<Set<number>> {
  if (rows.length === 0) return new Set();
  const names = Object.keys(q.values);
  const arrays = [
    sql`${rows.map((r) => r.id)}::bigint[]`,
    sql`${rows.map((r) => r.lease)}::timestamptz[]`,
    sql`${rows.map((r) => r.attempt)}::int[]`,
    ...names.map((n) => sql`${q.values[n]!.of}::${sql.raw(q.values[n]!.type)}[]`),
  ];
  const { rows: done } = await sql<{ id: number }>`
    update ${sql.table(t.table)} t set ${sql.ref(t.lease)} = null, ${q.set}
    from unnest(${sql.join(arrays)}) as v(claim_id, claim_lease, claim_attempt${sql.raw(names.map((n) => `, ${n}`).join(''))})
    where t.id = v.claim_id and ${fenceOn(t, 't', { lease: sql`v.claim_lease`, attempt: sql`v.claim_attempt` })}
      ${q.where ? sql`and (${q.where})` : sql``}
    returning t.id`.execute(db);
  return new Set(done.map((r) => Number(r.id)));
}

export interface FailedTry {
  /** 'retry': due again at `retryAt`; 'failed': no more tries; 'lost': the row was no longer ours (nothing written). */
  outcome: 'retry' | 'failed' | 'lost';
  retryAt: Date | null;
}

/**
 * A try that failed, while the row is still ours: let go, due again after the back-off of its attempt
 * (`retry` set too), or failed for good (`failed` set) when the back-off says no more tries or
 * `giveUp` (an error that trying again cannot fix). `also` is set either way (the error).
 */
export async function failLeased(
  db: Db,
  t: LeasedTable,
  held: Lease,
  f: {
    backoff: Backoff;
    now?: Date;
    giveUp?: boolean;
    retry?: RawBuilder<unknown>;
    /** Set when there are no more tries (needed when the back-off has an end, or with `giveUp`). */
    failed?: RawBuilder<unknown>;
    also?: RawBuilder<unknown>;
  },
): Promise<FailedTry> {
  const waitMs = f.giveUp ? null : f.backoff(held.attempt);
  const sets = [sql`${sql.ref(t.lease)} = null`];
  if (waitMs !== null)
    sets.push(
      sql`${sql.ref(t.retryAt)} = ${timeOf(f.now)} + make_interval(secs => ${waitMs / 1000})`,
      ...(f.retry ? [f.retry] : []),
    );
  else if (f.failed) sets.push(f.failed);
  if (f.also) sets.push(f.also);
  const { rows } = await sql<Record<string, unknown>>`
    update ${sql.table(t.table)} t set ${sql.join(sets)}
    where t.id = ${held.id} and ${fenceOn(t, 't', held)}
    returning ${col('t', t.retryAt)} as retry_at`.execute(db);
  const row = rows[0];
  if (!row) return { outcome: 'lost', retryAt: null };
  if (waitMs === null) return { outcome: 'failed', retryAt: null };
  return { outcome: 'retry', retryAt: new Date((row.retryAt ?? row.retry_at) as Date) };
}
