import { sql } from 'kysely';
import type { Db } from '../src/client.js';
import { ownerDb } from '../src/tenancy.js';

/**
 * How many sessions of `db`'s database are waiting for a lock, read as the tables' owner (the
 * application's role sees no other session's wait): for a test that holds a lock and checks that a
 * write waits behind it.
 */
export async function lockWaiters(db: Db): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock'`.execute(ownerDb(db));
  return rows[0]!.n;
}
