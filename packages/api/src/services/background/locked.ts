import { sql, type Db } from '@lampstand/db';
import type { SelectQueryBuilder } from 'kysely';

/**
 * The claim primitive's other half, for work done inside the transaction that claims it (incoming
 * texts, recurring charges, offers that ran out, a church's journey triggers, a webhook endpoint's
 * events): the due rows are taken with FOR UPDATE SKIP LOCKED and worked on in the same transaction,
 * which is the lease. Two workers never take the same row; a worker that dies mid-batch loses its
 * connection, its transaction rolls back and the rows are due again at once, never half done. A
 * failure rolls back the batch and is thrown (the job that runs the loop retries it).
 *
 * Batches of `limit` rows, one transaction each, until no row is due. With `once`, a row worked on
 * is not taken again by this drain even when it is still due (a schedule whose date did not move).
 */
interface LockedQuery<DB, TB extends keyof DB, R> {
  /** The due rows, in the order to take them (the primitive adds the limit and the lock). */
  due: (trx: Db) => SelectQueryBuilder<DB, TB, R>;
  /** The table (its alias) whose rows are locked when `due` joins others. */
  lock?: string;
  /** The row's id column in `due` (`gs.id`) and its value: each row once per drain. */
  once?: { column: string; id: (row: R) => number };
}

export interface LockedWork<DB, TB extends keyof DB, R, O> extends LockedQuery<DB, TB, R> {
  limit: number;
  /** What to do with a batch, in its transaction. */
  work: (trx: Db, rows: R[]) => Promise<O>;
}

/**
 * Each batch's outcome as it commits (the caller does what must follow a commit, such as asking for
 * a delivery job, and may stop early); ends when a claim finds nothing.
 */
export async function* lockedBatches<DB, TB extends keyof DB, R, O>(
  db: Db,
  w: LockedWork<DB, TB, R, O>,
): AsyncGenerator<{ rows: number; out: O }> {
  const seen: number[] = [];
  for (;;) {
    const batch = await db.transaction().execute(async (trx) => {
      let q = w.due(trx);
      if (w.once && seen.length > 0) q = q.where(sql<boolean>`${sql.ref(w.once.column)} <> all(${seen}::bigint[])`);
      q = q.limit(w.limit);
      q = (w.lock ? q.forUpdate(w.lock as never) : q.forUpdate()).skipLocked();
      const rows = (await q.execute()) as R[];
      if (rows.length === 0) return null;
      if (w.once) for (const r of rows) seen.push(w.once.id(r));
      return { rows: rows.length, out: await w.work(trx, rows) };
    });
    if (!batch) return;
    yield batch;
  }
}

/** Every batch until none is due; their outcomes. */
export async function drainLocked<DB, TB extends keyof DB, R, O>(db: Db, w: LockedWork<DB, TB, R, O>): Promise<O[]> {
  const outs: O[] = [];
  for await (const b of lockedBatches(db, w)) outs.push(b.out);
  return outs;
}

/** One row a transaction (a charge, a send): `work` gets the row itself. */
export function lockedRows<DB, TB extends keyof DB, R, O>(
  db: Db,
  w: LockedQuery<DB, TB, R> & { work: (trx: Db, row: R) => Promise<O> },
): AsyncGenerator<{ rows: number; out: O }> {
  return lockedBatches(db, { ...w, limit: 1, work: (trx, rows) => w.work(trx, rows[0]!) });
}
