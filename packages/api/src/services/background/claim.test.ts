import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { APP_ROLE, ownerDb, sql } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import {
  afterDelays,
  cappedExponential,
  claimLeased,
  everyMs,
  failLeased,
  finishLeased,
  finishLeasedMany,
  renewLease,
  type LeasedTable,
} from './claim.js';
import { drainLocked, lockedBatches } from './locked.js';

// The claim primitive, tested once for every loop that uses it: crash, lease expiry, fencing,
// retry and back-off, on a table of its own, with a clock the test holds (`now`, passed to every
// call): nothing waits on real time.

/** A connection the test can cut: the database package's own driver (pg), without a pool around it. */
interface RawClient {
  on(event: 'error', listener: () => void): void;
  connect(): Promise<void>;
  query(text: string): Promise<{ rows: { pid: number }[] }>;
}
const pg = createRequire(import.meta.resolve('@lampstand/db'))('pg') as {
  Client: new (o: { connectionString: string }) => RawClient;
};

const { db, url } = await freshDatabase();
await sql`
  create table work_items (
    id bigserial primary key,
    status text not null default 'pending',
    lease_until timestamptz,
    claimed_at timestamptz,
    attempts int not null default 0,
    next_attempt_at timestamptz,
    note text
  );
  grant select, insert, update, delete on work_items to ${sql.id(APP_ROLE)}`.execute(ownerDb(db));

/** The same rows read through either kind of lease column. */
const UNTIL: LeasedTable = {
  table: 'work_items',
  lease: 'lease_until',
  holds: 'until',
  attempts: 'attempts',
  retryAt: 'next_attempt_at',
};
const SINCE: LeasedTable = { ...UNTIL, lease: 'claimed_at', holds: 'since' };
const LEASE = 60;
const T0 = new Date('2030-01-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

interface Item {
  id: number;
  status: string;
  attempts: number;
  note: string | null;
  nextAttemptAt: Date | null;
}

async function items(n: number) {
  await sql`truncate work_items restart identity`.execute(ownerDb(db));
  await sql`insert into work_items (status) select 'pending' from generate_series(1, ${n})`.execute(ownerDb(db));
}
const due = (now: Date) => sql`x.status = 'pending' and (x.next_attempt_at is null or x.next_attempt_at <= ${now})`;
const claim = (t: LeasedTable, now: Date, limit = 10, held: number[] = []) =>
  claimLeased<Item>(db, t, { due: due(now), order: sql`x.id`, limit, leaseSeconds: LEASE, now, held });
const row = (id: number) =>
  db
    .selectFrom('workItems' as never)
    .selectAll()
    .where('id' as never, '=', id as never)
    .executeTakeFirstOrThrow() as Promise<Item & { leaseUntil: Date | null; claimedAt: Date | null }>;

describe.each([
  ['a lease that holds its end (lease_until)', UNTIL],
  ['a lease that holds its start (claimed_at)', SINCE],
])('%s', (_, t) => {
  it('claims due rows once each, stamping the lease and one more attempt', async () => {
    await items(5);
    const [a, b] = await Promise.all([claim(t, T0, 3), claim(t, T0, 3)]);
    const ids = [...a, ...b].map((c) => c.lease.id);
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
    const first = a[0]!;
    expect(first.lease.attempt).toBe(1);
    expect(first.row.attempts).toBe(1);
    expect(first.lease.lease.getTime()).toBe(t.holds === 'until' ? at(LEASE).getTime() : T0.getTime());
    // Held by someone: nothing more to claim until their leases run out.
    expect(await claim(t, at(LEASE - 1))).toEqual([]);
  });

  it('a crashed worker’s rows (never finished) are claimed again once the lease ran out, as the next attempt', async () => {
    await items(2);
    const crashed = await claim(t, T0);
    expect(crashed).toHaveLength(2);
    expect(await claim(t, at(LEASE))).toEqual([]);
    const survivor = await claim(t, at(LEASE + 1));
    expect(survivor.map((c) => c.lease.id)).toEqual(crashed.map((c) => c.lease.id));
    expect(survivor.map((c) => c.lease.attempt)).toEqual([2, 2]);
  });

  it('fences: a worker whose lease ran out and was taken over can neither finish, renew nor fail the row', async () => {
    await items(1);
    const [late] = await claim(t, T0);
    const [current] = await claim(t, at(LEASE + 1));
    expect(await finishLeased(db, t, late!.lease, sql`status = 'done', note = 'late'`)).toBe(false);
    expect(await renewLease(db, t, late!.lease, { leaseSeconds: LEASE, now: at(LEASE + 2) })).toBeNull();
    const failed = await failLeased(db, t, late!.lease, {
      backoff: everyMs(1000),
      now: at(LEASE + 2),
      failed: sql`status = 'failed'`,
    });
    expect(failed).toEqual({ outcome: 'lost', retryAt: null });
    expect(await row(current!.lease.id)).toMatchObject({ status: 'pending', attempts: 2, note: null });
    expect(await finishLeased(db, t, current!.lease, sql`status = 'done', note = 'current'`)).toBe(true);
    expect(await row(current!.lease.id)).toMatchObject({ status: 'done', note: 'current' });
  });

  it('a renewal moves the lease on and the fence with it', async () => {
    await items(1);
    const [c] = await claim(t, T0);
    const renewed = await renewLease<Item>(db, t, c!.lease, { leaseSeconds: LEASE, now: at(LEASE - 1) });
    expect(renewed!.lease.attempt).toBe(1);
    // Not claimable where the first lease would have run out.
    expect(await claim(t, at(LEASE + 1))).toEqual([]);
    // The old stamp is no longer the fence; the new one is.
    expect(await finishLeased(db, t, c!.lease, sql`status = 'done'`)).toBe(false);
    expect(await finishLeased(db, t, renewed!.lease, sql`status = 'done'`)).toBe(true);
    // `where`: renewed only while the row is as the caller needs it.
    await items(1);
    const [d] = await claim(t, T0);
    await db
      .updateTable('workItems' as never)
      .set({ note: 'edited' } as never)
      .execute();
    expect(await renewLease(db, t, d!.lease, { leaseSeconds: LEASE, now: T0, where: sql`t.note is null` })).toBeNull();
  });

  it('never claims back rows the worker itself still holds, even past their lease', async () => {
    await items(3);
    const mine = await claim(t, T0, 2);
    const again = await claim(
      t,
      at(LEASE + 1),
      10,
      mine.map((c) => c.lease.id),
    );
    expect(again.map((c) => c.lease.id)).toEqual([3]);
  });

  it('retries a failed try after its back-off, then fails it for good when the back-off says no more', async () => {
    await items(1);
    const backoff = cappedExponential({ firstMs: 10_000, maxAttempts: 3 });
    const failed = (c: { lease: { id: number; lease: Date; attempt: number } }, now: Date) =>
      failLeased(db, t, c.lease, {
        backoff,
        now,
        retry: sql`status = 'pending'`,
        failed: sql`status = 'failed'`,
        also: sql`note = ${`attempt ${c.lease.attempt}`}`,
      });
    const [one] = await claim(t, T0);
    expect(await failed(one!, at(1))).toEqual({ outcome: 'retry', retryAt: at(11) });
    // Due again only after its wait.
    expect(await claim(t, at(10))).toEqual([]);
    const [two] = await claim(t, at(11));
    expect(two!.lease.attempt).toBe(2);
    expect(await failed(two!, at(12))).toEqual({ outcome: 'retry', retryAt: at(32) });
    const [three] = await claim(t, at(32));
    expect(await failed(three!, at(33))).toEqual({ outcome: 'failed', retryAt: null });
    expect(await row(three!.lease.id)).toMatchObject({ status: 'failed', attempts: 3, note: 'attempt 3' });
    // An error that trying again cannot fix fails at once.
    await items(1);
    const [permanent] = await claim(t, T0);
    const r = await failLeased(db, t, permanent!.lease, {
      backoff,
      giveUp: true,
      now: T0,
      failed: sql`status = 'failed'`,
    });
    expect(r.outcome).toBe('failed');
  });

  it('finishes many rows in one statement, each only while still ours', async () => {
    await items(3);
    const claimed = await claim(t, T0);
    // The second row's lease ran out and another worker took it.
    await sql`update work_items set attempts = attempts + 1 where id = ${claimed[1]!.lease.id}`.execute(db);
    const done = await finishLeasedMany(
      db,
      t,
      claimed.map((c) => c.lease),
      { values: { note: { type: 'text', of: ['a', 'b', 'c'] } }, set: sql`status = 'done', note = v.note` },
    );
    expect([...done].sort()).toEqual([claimed[0]!.lease.id, claimed[2]!.lease.id].sort());
    expect((await row(claimed[1]!.lease.id)).status).toBe('pending');
    expect((await row(claimed[2]!.lease.id)).note).toBe('c');
  });
});

describe('back-off', () => {
  it('doubles from the first wait up to its cap, and stops after the last attempt', () => {
    const b = cappedExponential({ firstMs: 1000, maxMs: 5000, maxAttempts: 5 });
    expect([1, 2, 3, 4, 5].map(b)).toEqual([1000, 2000, 4000, 5000, null]);
    expect([1, 2, 3].map(afterDelays([5, 300]))).toEqual([5, 300, null]);
    expect(everyMs(7)(100)).toBe(7);
  });
});

describe('claims for the length of a transaction', () => {
  const pending = (trx: typeof db) =>
    trx
      .selectFrom('workItems' as never)
      .select(['id' as never])
      .where('status' as never, '=', 'pending' as never)
      .orderBy('id' as never) as never;

  it('workers drain the due rows together, each row once', async () => {
    await items(20);
    const seen: number[] = [];
    const work = (trx: typeof db, rows: { id: number }[]) =>
      sql`update work_items set status = 'done' where id = any(${rows.map((r) => r.id)}::bigint[])`
        .execute(trx)
        .then(() => void seen.push(...rows.map((r) => r.id)));
    await Promise.all([
      drainLocked(db, { due: pending, limit: 3, work }),
      drainLocked(db, { due: pending, limit: 4, work }),
    ]);
    expect(seen).toHaveLength(20);
    expect(new Set(seen).size).toBe(20);
  });

  it('a worker that dies mid-batch leaves its rows due, not half done, and the others skip them meanwhile', async () => {
    await items(2);
    // A worker on a connection of its own takes row 1 and dies inside its transaction.
    const dying = new pg.Client({ connectionString: url });
    dying.on('error', () => {});
    await dying.connect();
    await dying.query('begin');
    await dying.query(`select id from work_items where id = 1 for update skip locked`);
    await dying.query(`update work_items set note = 'half' where id = 1`);
    const pid = (await dying.query('select pg_backend_pid() as pid')).rows[0]!.pid;
    const taken: number[] = [];
    const work = async (trx: typeof db, rows: { id: number }[]) => {
      taken.push(...rows.map((r) => r.id));
      await sql`update work_items set status = 'done' where id = any(${rows.map((r) => r.id)}::bigint[])`.execute(trx);
    };
    await drainLocked(db, { due: pending, limit: 10, work });
    expect(taken).toEqual([2]);
    await sql`select pg_terminate_backend(${pid})`.execute(ownerDb(db));
    // Told to end, the backend goes (and its row lock with it) a moment later, sooner or later on
    // a busy machine: wait until it holds no lock and is gone.
    await expect
      .poll(
        async () =>
          (
            await sql<{ n: number }>`
              select (select count(*) from pg_locks where pid = ${pid})::int
                   + (select count(*) from pg_stat_activity where pid = ${pid})::int as n`.execute(ownerDb(db))
          ).rows[0]!.n,
        { timeout: 30_000, interval: 20 },
      )
      .toBe(0);
    await drainLocked(db, { due: pending, limit: 10, work });
    expect(taken).toEqual([2, 1]);
    expect(await row(1)).toMatchObject({ status: 'done', note: null });
  });

  it('a batch that fails rolls back and throws; `once` takes a row still due only once per drain', async () => {
    await items(2);
    await expect(
      drainLocked(db, {
        due: pending,
        limit: 10,
        work: async (trx) => {
          await sql`update work_items set note = 'partial'`.execute(trx);
          throw new Error('provider down');
        },
      }),
    ).rejects.toThrow('provider down');
    expect((await row(1)).note).toBeNull();
    const batches: number[][] = [];
    for await (const b of lockedBatches(db, {
      due: pending,
      limit: 1,
      once: { column: 'id', id: (r: { id: number }) => r.id },
      work: async (_trx, rows: { id: number }[]) => rows.map((r) => r.id),
    }))
      batches.push(b.out);
    expect(batches).toEqual([[1], [2]]);
  });
});
