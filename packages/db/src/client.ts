import { Kysely, PostgresDialect, CamelCasePlugin } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

// Return timestamps, dates and bigints as JSON-native values the API hands out unchanged.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export type Db = Kysely<Database>;

export interface CreateDbOptions {
  /** Largest number of pooled connections (default 10). */
  max?: number;
}

/** A kysely instance over a pg pool. Column names are snake_case in SQL, camelCase in TypeScript. */
export function createDb(connectionString: string, options: CreateDbOptions = {}): Db {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10 });
  pool.on('error', (err) => {
    // An idle client lost its connection (e.g. the server restarted); the pool replaces it.
    console.error('[db] idle client error:', err.message);
  });
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new CamelCasePlugin()],
  });
}
