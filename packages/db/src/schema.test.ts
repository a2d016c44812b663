import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../test/fresh-db.js';
import { schemaColumns } from './schema.js';

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

describe('schema.ts matches the migrated database', async () => {
  const { db } = await freshDatabase();

  it('has exactly the tables and columns that the Database interface declares', async () => {
    const rows = await sql<{ tableName: string; columnName: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' and table_name not like 'kysely_%'
      order by table_name, column_name`.execute(db);
    const actual: Record<string, string[]> = {};
    for (const r of rows.rows) (actual[r.tableName] ??= []).push(r.columnName);

    const expected: Record<string, string[]> = {};
    for (const [table, cols] of Object.entries(schemaColumns)) {
      expected[snake(table)] = Object.keys(cols).map(snake).sort();
    }
    expect(actual).toEqual(expected);
  });

  it('migrating twice at once is safe', async () => {
    const { migrateToLatest } = await import('./migrate.js');
    const results = await Promise.all([migrateToLatest(db), migrateToLatest(db)]);
    for (const r of results) expect(r.error).toBeUndefined();
  });
});
