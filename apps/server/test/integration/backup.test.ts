import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFreshDatabase } from '@lampstand/db/test/fresh-db';
import { ensureAppRole, migrateToLatest, sql } from '@lampstand/db';
import { backupDatabase, restoreDatabase } from '../../src/cli/backup.js';

// pnpm db:backup / db:restore: a custom-format pg_dump archive restores the data it holds.
describe('backup and restore', () => {
  it('restores a row deleted after the backup', async () => {
    const tdb = await createFreshDatabase();
    try {
      await migrateToLatest(tdb.db);
      await tdb.db
        .insertInto('users')
        .values({ username: 'keep', passwordHash: 'x', churchName: 'Grace', email: 'k@example.org', role: 'church' })
        .execute();
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lampstand-backup-')), 'db.dump');
      await backupDatabase(tdb.url, file);
      expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe('PGDMP');
      await tdb.db.deleteFrom('users').execute();
      await restoreDatabase(tdb.url, file);
      await ensureAppRole(tdb.db); // as pnpm db:restore does: the archive holds no grants
      const rows = await sql<{ username: string }>`select username from users`.execute(tdb.db);
      expect(rows.rows.map((r) => r.username)).toEqual(['keep']);
    } finally {
      await tdb.drop();
    }
  });
});
