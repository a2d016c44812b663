import { afterAll, describe, expect, it } from 'vitest';
import { CompiledQuery, sql } from 'kysely';
import { createFreshDatabase } from '../test/fresh-db.js';
import { twoChurchesWithContacts } from '../test/two-churches.js';
import { createDb, type Db } from './client.js';
import { preparedStatement, statementName } from './prepared.js';
import { tenantDb } from './tenancy.js';

// A registered text runs as a named prepared statement on a session-mode pool, under the church's
// row-level security as any statement; a pool behind a pooler in transaction mode never prepares.
const fresh = await createFreshDatabase();
const session = createDb(fresh.url, { max: 1 });
const pooled = createDb(fresh.url, { max: 1, pooler: 'transaction' });
afterAll(async () => {
  await session.destroy();
  await pooled.destroy();
  await fresh.drop();
});
const { churchA, churchB } = await twoChurchesWithContacts(session);

const NAMES = preparedStatement('select first_name from contacts where $1::int > 0 order by first_name');

const run = async (db: Db) =>
  (await db.executeQuery<{ firstName: string }>(CompiledQuery.raw(NAMES, [1]))).rows.map((r) => r.firstName);

/** The statements prepared on the connection `db` uses (each pool here has one). */
const preparedOn = async (db: Db) =>
  (await sql<{ name: string }>`select name from pg_prepared_statements`.execute(db)).rows.map((r) => r.name);

describe('prepared statements', () => {
  it('a registered text runs prepared, once per connection, each church seeing only its rows', async () => {
    const a = tenantDb(session, churchA);
    const b = tenantDb(session, churchB);
    const first = await run(a);
    expect(await run(b)).not.toEqual(first);
    // Past PostgreSQL's fifth run, when it may switch to a generic plan: the policy still holds.
    const second = await run(b);
    for (let i = 0; i < 8; i++) {
      expect(await run(a)).toEqual(first);
      expect(await run(b)).toEqual(second);
    }
    expect(first.length).toBeGreaterThan(0);
    expect(await preparedOn(a)).toEqual([statementName(NAMES)]);
  });

  it('a pool in transaction mode sends the text unprepared', async () => {
    const a = tenantDb(pooled, churchA);
    expect(await run(a)).toEqual(await run(tenantDb(session, churchA)));
    expect(await preparedOn(a)).toEqual([]);
  });
});
