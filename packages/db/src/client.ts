import { CamelCasePlugin, type Kysely } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import type { Database } from './schema.js';
import { addReplicas, createScopedDb } from './tenancy.js';
import { PreparingClient } from './prepared.js';

// Type parsers, set once for the process:
// - int8 (count(*), bigint ids) and numeric (amounts, coordinates) come back as JavaScript numbers,
//   not strings;
// - date (a calendar day) comes back as its 'YYYY-MM-DD' text, not a Date at local midnight.
// timestamp and timestamptz keep pg's default: a JavaScript Date, not JSON-native. Services return
// the Date; the procedures' output schemas turn it into ISO text (`isoTimestamp` in
// @lampstand/api's schemas/common.ts), so tRPC and REST clients see the same string.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

/**
 * A timestamptz written as text inside a JSON document (`t::text` in SQL) → the same Date pg gives
 * for a timestamptz column (its own parser of the same text), for statements that return rows as JSON.
 */
export const parseTimestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date;

export type Db = Kysely<Database>;

export interface CreateDbOptions {
  /** Largest number of pooled connections, per pool (default 10). */
  max?: number;
  /**
   * Row-level security (default on). Off only for an emergency (`RLS=off`): the application then
   * works as the connecting user, which owns the tables and is not subject to the policies.
   */
  rls?: boolean;
  /**
   * Streaming replicas (`DATABASE_READ_URL`): reads that may be a second behind go
   * there through `readDb`; everything else uses the primary. Each gets pools of the same size.
   */
  readUrls?: string[];
  /**
   * 'transaction' when the URLs lead to a pooler in transaction mode (PgBouncer; `DATABASE_POOLER`):
   * a church's settings are made per transaction, never left on a connection (tenancy.ts).
   */
  pooler?: 'session' | 'transaction';
  /**
   * The tables' owner's login (`DATABASE_OWNER_URL`): migrations, the role's grants and
   * ANALYZE use it (a pool of 2); the URL given to `createDb` is then the application's own login.
   */
  ownerUrl?: string;
}

/**
 * A pool of `max` connections. `pipeline`: behind a pooler in transaction mode a statement is sent
 * together with its transaction's BEGIN and COMMIT, without waiting between them (tenancy-driver.ts);
 * otherwise the hot statements run prepared (prepared.ts).
 */
function createPool(connectionString: string, max: number, pipeline = false): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, ...(pipeline ? { pipeline } : { Client: PreparingClient }) });
  pool.on('error', (err) => {
    // An idle client lost its connection (e.g. the server restarted); the pool replaces it.
    console.error('[db] idle client error:', err.message);
  });
  return pool;
}

/**
 * A kysely instance over pg pools. Column names are snake_case in SQL, camelCase in TypeScript.
 * It reads and writes every church's rows (the system handle: sign-in, public routes, jobs);
 * `tenantDb(db, id)` is the same database as one church, `ownerDb(db)` as the tables' owner
 * (tenancy.ts).
 */
export function createDb(connectionString: string, options: CreateDbOptions = {}): Db {
  const max = options.max ?? 10;
  const pipeline = options.pooler === 'transaction';
  const db = createScopedDb(createPool(connectionString, max, pipeline), createPool(connectionString, max, pipeline), {
    rls: options.rls ?? true,
    // `cursor`: a query's `.stream()` reads through a server-side cursor, a chunk of rows at a time.
    cursor: Cursor,
    plugins: [new CamelCasePlugin()],
    pooler: options.pooler,
    ownerPool: options.ownerUrl ? createPool(options.ownerUrl, 2, pipeline) : undefined,
  });
  const readUrls = options.readUrls?.filter(Boolean) ?? [];
  if (readUrls.length > 0) {
    addReplicas(
      db,
      readUrls.map((url) => ({
        systemPool: createPool(url, max, pipeline),
        tenantPool: createPool(url, max, pipeline),
        cursor: Cursor,
      })),
    );
  }
  return db;
}
