import { sql, type Db } from '@lampstand/db';
import { timeOf } from './claim.js';

/**
 * The claim primitive's form for one job row worked through in batches (an import): the row is the
 * lease. A run claims it by id, in one conditional statement, so that two runs at once (pg-boss
 * retrying beside a slow first run) cannot both have it: queued, or failed (the retry resumes after
 * the last committed batch), or running without progress for `leaseMinutes` (its run died). Each
 * batch's transaction then starts with the fence: the row is locked and must still be running at
 * the count this run committed last. A run that took over has moved the count on (or waits on the
 * lock for this batch to commit, then finds it moved), so every row is written once and a run that
 * comes back late stops with `TakenOver`, its batch rolled back.
 *
 * The table has `id`, `status`, `processed_rows`, `progress_at`, `created_at`, `error` and
 * `finished_at`. `now` is the caller's clock when given (tests drive one), else the database's.
 */

export interface ResumableTable {
  /** The table, as PostgreSQL names it. */
  table: string;
  /** A running row without progress for this long is taken to be dead, and a retry takes it over. */
  leaseMinutes: number;
}

/** Another run has the row (or finished it): this run stops, its batch rolled back. */
export class TakenOver extends Error {
  constructor() {
    super('Another run took this job over');
    this.name = 'TakenOver';
  }
}

/** Claim the row for this run: the row as it is now (running), or undefined when there is nothing to do. */
export async function claimResumable<R>(
  db: Db,
  t: ResumableTable,
  id: number,
  opts: { now?: Date } = {},
): Promise<R | undefined> {
  const { rows } = await sql<R>`
    update ${sql.table(t.table)}
    set status = 'running', error = null, finished_at = null, progress_at = ${opts.now ?? new Date()}
    where id = ${id} and (
      status in ('queued', 'failed')
      or (status = 'running'
        and coalesce(progress_at, created_at) < ${timeOf(opts.now)} - make_interval(mins => ${t.leaseMinutes})))
    returning *`.execute(db);
  return rows[0];
}

/** First in each batch's transaction: the row is still this run's, at the count it left. */
export async function fenceResumable(trx: Db, t: ResumableTable, id: number, processed: number): Promise<void> {
  const { rows } = await sql<{ status: string; processedRows: number }>`
    select status, processed_rows from ${sql.table(t.table)} where id = ${id} for update`.execute(trx);
  const row = rows[0];
  if (row?.status !== 'running' || row.processedRows !== processed) throw new TakenOver();
}
