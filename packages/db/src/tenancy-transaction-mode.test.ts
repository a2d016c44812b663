import { afterAll, describe, expect, it } from 'vitest';
import { CamelCasePlugin, sql } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { createFreshDatabase } from '../test/fresh-db.js';
import { twoChurchesWithContacts } from '../test/two-churches.js';
import { APP_ROLE, createScopedDb, tenantDb, bypassDb, scopedDb, leasedDb, ownerDb, plainDb } from './tenancy.js';
import type { Db } from './client.js';

// Behind PgBouncer in transaction mode, a server connection may serve anyone between
// two transactions, so nothing of a church may be left on it. With `pooler: 'transaction'` the
// settings are made per transaction. Pools of one connection each here, so the test can look at
// the very connection the handles used; pipelined, as `createDb` makes them in transaction mode.
const fresh = await createFreshDatabase();
const url = fresh.url;
const systemPool = new pg.Pool({ connectionString: url, max: 1, pipeline: true });
const tenantPool = new pg.Pool({ connectionString: url, max: 1, pipeline: true });
// An idle client whose server goes away (the database dropped at the end) is only logged.
for (const pool of [systemPool, tenantPool]) pool.on('error', () => {});
const db: Db = createScopedDb(systemPool, tenantPool, {
  rls: true,
  plugins: [new CamelCasePlugin()],
  cursor: Cursor,
  pooler: 'transaction',
});
afterAll(async () => {
  await db.destroy(); // ends both pools before their database is dropped
  await fresh.drop();
});
const { churchA, churchB } = await twoChurchesWithContacts(db);

const names = async (d: Db) =>
  (await sql<{ firstName: string }>`select first_name from contacts order by first_name`.execute(d)).rows.map(
    (r) => r.firstName,
  );

/** What is left on the pool's one connection after the handles gave it back. */
async function leftOn(pool: pg.Pool) {
  const { rows } = await pool.query<{ who: string; tenant: string; bypass: string; tx: boolean }>(
    `select current_user as who, coalesce(current_setting('app.tenant_id', true), '') as tenant,
       coalesce(current_setting('app.rls_bypass', true), '') as bypass,
       now() <> statement_timestamp() as tx`,
  );
  return rows[0];
}

describe('row-level security behind a pooler in transaction mode', () => {
  it('shows each church only its rows, and leaves nothing of the church on the connection', async () => {
    expect(await names(tenantDb(db, churchA))).toEqual(['Abe', 'Ann']);
    const after = await leftOn(tenantPool);
    expect(after!.who).not.toBe(APP_ROLE);
    expect(after!.tenant).toBe('');
    expect(after!.tx).toBe(false);
    expect(await names(tenantDb(db, churchB))).toEqual(['Bea']);
    expect(await names(scopedDb(db, { kind: 'none' }))).toEqual([]);
    expect(await names(bypassDb(db))).toEqual(['Abe', 'Ann', 'Bea']);
    expect((await leftOn(systemPool))!.bypass).toBe('');
  });

  it("keeps the church through kysely's transactions, commits them and rolls them back", async () => {
    const a = tenantDb(db, churchA);
    await a.transaction().execute(async (trx) => {
      expect(await names(trx)).toEqual(['Abe', 'Ann']);
      await trx.insertInto('contacts').values({ userId: churchA, firstName: 'Amy', lastName: 'A' }).execute();
    });
    await expect(
      a.transaction().execute(async (trx) => {
        await trx.insertInto('contacts').values({ userId: churchA, firstName: 'Art', lastName: 'A' }).execute();
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await names(a)).toEqual(['Abe', 'Amy', 'Ann']);
    // Another church's row is refused inside a transaction too.
    await expect(
      a
        .transaction()
        .execute((trx) =>
          trx.insertInto('contacts').values({ userId: churchB, firstName: 'Bo', lastName: 'B' }).execute(),
        ),
    ).rejects.toThrow(/row-level security/);
    expect((await leftOn(tenantPool))!.tenant).toBe('');
  });

  it('recovers from a failed statement, and streams through a cursor under the church', async () => {
    const a = tenantDb(db, churchA);
    await expect(sql`select 1/0`.execute(a)).rejects.toThrow(/division by zero/);
    expect(await names(a)).toEqual(['Abe', 'Amy', 'Ann']);
    const streamed: string[] = [];
    for await (const row of a.selectFrom('contacts').select('firstName').orderBy('firstName').stream(1)) {
      streamed.push(row.firstName);
    }
    expect(streamed).toEqual(['Abe', 'Amy', 'Ann']);
    expect((await leftOn(tenantPool))!.tx).toBe(false);
  });

  it('holds a session lock on a leased connection, in one transaction, until it is given back', async () => {
    const xid = sql<{ xid: string }>`select pg_current_xact_id()::text as xid`;
    await leasedDb(tenantDb(db, churchA))
      .connection()
      .execute(async (conn) => {
        const { rows } = await sql<{ ok: boolean }>`select pg_try_advisory_lock(42) as ok`.execute(conn);
        expect(rows[0]!.ok).toBe(true);
        expect(await names(conn)).toEqual(['Abe', 'Amy', 'Ann']);
        // One transaction for the lease: the pooler keeps its server connection with it.
        const first = (await xid.execute(conn)).rows[0]!.xid;
        expect((await xid.execute(conn)).rows[0]!.xid).toBe(first);
        await sql`select pg_advisory_unlock(42)`.execute(conn);
      });
    const { rows } = await systemPool.query<{ n: number }>(
      `select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = 42`,
    );
    expect(rows[0]!.n).toBe(0);
    expect((await leftOn(tenantPool))!.tx).toBe(false);
  });

  it('runs each statement outside a transaction in one of its own, and waits for its COMMIT', async () => {
    const a = tenantDb(db, churchA);
    const xid = sql<{ xid: string }>`select pg_current_xact_id()::text as xid`;
    await a.connection().execute(async (conn) => {
      const first = (await xid.execute(conn)).rows[0]!.xid;
      expect((await xid.execute(conn)).rows[0]!.xid).not.toBe(first);
    });
    // A COMMIT that fails (a deferred check) fails the statement: its answer waited for the COMMIT.
    const owner = ownerDb(db);
    await sql`create table deferred_check (id int primary key, parent int references deferred_check (id) deferrable initially deferred)`.execute(
      owner,
    );
    await expect(sql`insert into deferred_check values (1, 99)`.execute(owner)).rejects.toThrow(/foreign key/);
    expect((await sql<{ n: number }>`select count(*)::int as n from deferred_check`.execute(owner)).rows[0]!.n).toBe(0);
    await sql`drop table deferred_check`.execute(owner);
    // A statement that fails leaves the connection clean for the next one.
    await expect(sql`select 1/0`.execute(a)).rejects.toThrow(/division by zero/);
    expect(await names(a)).toEqual(['Abe', 'Amy', 'Ann']);
    expect((await leftOn(tenantPool))!.tx).toBe(false);
  });

  it('sends a statement of the plain handle alone, with no church and no bypass', async () => {
    // Alone: the server ran it as its own transaction (no BEGIN before it, so it started with it).
    const { rows } = await sql<{ alone: boolean; tenant: string; bypass: string }>`
      select now() = statement_timestamp() as alone, coalesce(current_setting('app.tenant_id', true), '') as tenant,
        coalesce(current_setting('app.rls_bypass', true), '') as bypass`.execute(plainDb(db));
    expect(rows[0]).toEqual({ alone: true, tenant: '', bypass: '' });
    // A kysely transaction on it still works, and leaves nothing behind.
    await plainDb(db)
      .transaction()
      .execute(async (trx) => {
        expect((await sql<{ one: number }>`select 1 as one`.execute(trx)).rows[0]!.one).toBe(1);
      });
    expect((await leftOn(systemPool))!.tx).toBe(false);
  });

  it('refuses pools that are not pipelined', () => {
    const plain = new pg.Pool({ connectionString: url, max: 1 });
    expect(() => createScopedDb(plain, plain, { rls: true, plugins: [], pooler: 'transaction' })).toThrow(
      /pipeline: true/,
    );
    void plain.end();
  });
});
