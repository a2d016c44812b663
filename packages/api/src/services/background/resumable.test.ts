import { describe, expect, it } from 'vitest';
import { APP_ROLE, ownerDb, sql } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { claimResumable, fenceResumable, TakenOver, type ResumableTable } from './resumable.js';

// The claim of a job row worked in batches (the imports), tested once for each job that uses it:
// a run dies mid-way, its lease runs out, another run takes over and resumes, and the first run,
// coming back late, is fenced out. The clock is the test's (`now`): nothing waits on real time.

const { db } = await freshDatabase();
await sql`
  create table resumable_jobs (
    id serial primary key,
    status text not null default 'queued',
    processed_rows int not null default 0,
    progress_at timestamptz,
    created_at timestamptz not null default now(),
    error text,
    finished_at timestamptz
  );
  grant select, insert, update, delete on resumable_jobs to ${sql.id(APP_ROLE)};
  grant usage on sequence resumable_jobs_id_seq to ${sql.id(APP_ROLE)}`.execute(ownerDb(db));

const JOBS: ResumableTable = { table: 'resumable_jobs', leaseMinutes: 10 };
const T0 = new Date('2030-01-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

interface Job {
  id: number;
  status: string;
  processedRows: number;
}

/** One batch as an import writes it: fenced, then its progress recorded in the same transaction. */
const batch = (id: number, processed: number, size: number, now: Date) =>
  db.transaction().execute(async (trx) => {
    await fenceResumable(trx, JOBS, id, processed);
    await sql`update resumable_jobs set processed_rows = ${processed + size}, progress_at = ${now} where id = ${id}`.execute(
      trx,
    );
  });

const newJob = async () =>
  (await sql<{ id: number }>`insert into resumable_jobs default values returning id`.execute(db)).rows[0]!.id;

describe('claimResumable and fenceResumable', () => {
  it('one run has the row; a dead run’s lease runs out, another takes over, the late one is fenced out', async () => {
    const id = await newJob();
    const first = await claimResumable<Job>(db, JOBS, id, { now: T0 });
    expect(first).toMatchObject({ id, status: 'running', processedRows: 0 });
    // A second run (pg-boss retrying beside it) finds it taken while its lease holds.
    expect(await claimResumable(db, JOBS, id, { now: at(5) })).toBeUndefined();
    await batch(id, 0, 100, T0);
    // The first run dies here. Ten minutes without progress later, a retry takes it over at 100.
    expect(await claimResumable(db, JOBS, id, { now: at(9) })).toBeUndefined();
    const second = await claimResumable<Job>(db, JOBS, id, { now: at(11) });
    expect(second).toMatchObject({ status: 'running', processedRows: 100 });
    await batch(id, 100, 100, at(11));
    // The first run comes back with the count it left (100): its batch is refused, nothing written.
    await expect(batch(id, 100, 100, at(12))).rejects.toBeInstanceOf(TakenOver);
    const row = await sql<Job>`select * from resumable_jobs where id = ${id}`.execute(db);
    expect(row.rows[0]!.processedRows).toBe(200);
  });

  it('a failed run is claimed again at once; a finished one never', async () => {
    const id = await newJob();
    await claimResumable(db, JOBS, id, { now: T0 });
    await sql`update resumable_jobs set status = 'failed', error = 'lost connection' where id = ${id}`.execute(db);
    const retried = await claimResumable<Job & { error: string | null }>(db, JOBS, id, { now: at(1) });
    expect(retried).toMatchObject({ status: 'running', error: null });
    await sql`update resumable_jobs set status = 'completed' where id = ${id}`.execute(db);
    expect(await claimResumable(db, JOBS, id, { now: at(60) })).toBeUndefined();
    await expect(batch(id, 0, 1, at(60))).rejects.toBeInstanceOf(TakenOver);
  });
});
