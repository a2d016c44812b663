import { describe, expect, it } from 'vitest';
import { freshDatabase } from '../test/fresh-db.js';
import { migrateToLatest } from './migrate.js';

describe('migrateToLatest', async () => {
  const { db } = await freshDatabase();

  it('migrating twice at once is safe', async () => {
    const results = await Promise.all([migrateToLatest(db), migrateToLatest(db)]);
    for (const r of results) expect(r.error).toBeUndefined();
  });
});
