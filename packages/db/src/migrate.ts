import { Migrator, type MigrationResultSet } from 'kysely/migration';
import type { Db } from './client.js';
import { migrations } from './migrations/index.js';

/**
 * Bring the database to the newest migration. Safe when several instances start at once:
 * kysely's Migrator holds a lock row while it works, so the others wait and then find nothing to do.
 */
export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const err = result.error instanceof Error ? result.error : new Error(JSON.stringify(result.error));
    err.message = `Migration ${failed?.migrationName ?? ''} failed: ${err.message}`;
    throw err;
  }
  return result;
}

/** Migrations this code knows that the database has not applied yet (0 when it is up to date). */
export async function pendingMigrations(db: Db): Promise<number> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const all = await migrator.getMigrations();
  return all.filter((m) => !m.executedAt).length;
}
