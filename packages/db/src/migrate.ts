import { Migrator, type MigrationResultSet } from 'kysely/migration';
import type { Db } from './client.js';
import { ensureAppRole } from './app-role.js';
import { withStartupLock } from './startup-lock.js';
import { resealSecrets } from './secrets.js';
import { rawSql } from './raw-sql.js';
import { forgetAppRole, ownerDb } from './tenancy.js';

/**
 * The migrations, loaded when asked for: a process that only connects (a worker thread of the API,
 * run from the sources) does without their hundred-odd modules.
 */
const migrations = async () => (await import('./migrations/index.js')).migrations;

/**
 * Bring the database to the newest migration, as the tables' owner, then grant the application
 * role (app-role.ts). Safe when several instances start at once: the start-up advisory lock (which
 * also covers kysely creating its own migration tables, outside its migration lock, and the role's
 * grants) makes the others wait, and they then find nothing to do.
 */
export async function migrateToLatest(
  db: Db,
  roleOptions: Parameters<typeof ensureAppRole>[1] = {},
): Promise<MigrationResultSet> {
  const owner = ownerDb(db);
  const migrator = new Migrator({
    db: owner,
    provider: { getMigrations: migrations },
  });
  const result = await withStartupLock(owner, async () => {
    const r = await migrator.migrateToLatest();
    if (!r.error) {
      await ensureAppRole(owner, roleOptions);
      // Secrets written in clear by an older instance, or sealed under a rotated-out key.
      await resealSecrets(rawSql(owner));
    }
    return r;
  });
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const err = result.error instanceof Error ? result.error : new Error(JSON.stringify(result.error));
    err.message = `Migration ${failed?.migrationName ?? ''} failed: ${err.message}`;
    throw err;
  }
  forgetAppRole(db);
  return result;
}

/** Migrations this code knows that the database has not applied yet (0 when it is up to date). */
export async function pendingMigrations(db: Db): Promise<number> {
  const migrator = new Migrator({ db, provider: { getMigrations: migrations } });
  const all = await migrator.getMigrations();
  return all.filter((m) => !m.executedAt).length;
}
