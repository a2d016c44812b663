import { sql } from 'kysely';
import type { Db } from './client.js';
import { leasedDb } from './tenancy.js';

/**
 * Schema work at start-up (migrations, pg-boss creating its schema and queues) one process at a time.
 * Two instances starting together on a fresh database otherwise race in `create table if not exists`
 * and pg-boss's DDL and one of them fails with "deadlock detected". A session-level advisory lock on
 * one pinned connection of `db`'s pool: the work itself uses other connections (so the pool needs at
 * least two), and a process that dies while holding it releases it with its connection.
 */
export async function withStartupLock<T>(db: Db, work: () => Promise<T>): Promise<T> {
  return leasedDb(db)
    .connection()
    .execute(async (conn) => {
      await sql`select pg_advisory_lock(hashtext('lampstand:startup-schema'))`.execute(conn);
      try {
        return await work();
      } finally {
        await sql`select pg_advisory_unlock(hashtext('lampstand:startup-schema'))`.execute(conn);
      }
    });
}
