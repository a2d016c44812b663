import path from 'node:path';
import { createDb, type Db } from './client.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded.js';
import { migrateToLatest } from './migrate.js';

export interface DatabaseHandle {
  db: Db;
  url: string;
  /** Set when the server is the embedded one this process started. */
  embedded?: EmbeddedDatabase;
  close(): Promise<void>;
}

export interface ConnectOptions {
  databaseUrl?: string;
  dataDir: string;
  embeddedPort?: number;
  migrate?: boolean;
  /** Row-level security (default on; see `CreateDbOptions.rls`). */
  rls?: boolean;
  /** Connections per pool (see `CreateDbOptions.max`). */
  poolMax?: number;
  /** Streaming replicas for reads that may lag (`DATABASE_READ_URL`; see `CreateDbOptions.readUrls`). */
  readUrls?: string[];
  /** A pooler in transaction mode in front (`DATABASE_POOLER`; see `CreateDbOptions.pooler`). */
  pooler?: 'session' | 'transaction';
  log?: (line: string) => void;
}

/**
 * `DATABASE_URL` when given; otherwise an embedded real PostgreSQL under `DATA_DIR/postgres`,
 * with a `lampstand` database. Runs migrations unless told not to.
 */
export async function connectDatabase(options: ConnectOptions): Promise<DatabaseHandle> {
  let embedded: EmbeddedDatabase | undefined;
  let url = options.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedPostgres({
      dataDir: path.join(options.dataDir, 'postgres'),
      port: options.embeddedPort ?? 54329,
      log: options.log,
    });
    url = await ensureDatabase(embedded.url, 'lampstand');
  }
  const db = createDb(url, {
    rls: options.rls,
    max: options.poolMax,
    readUrls: options.readUrls,
    pooler: options.pooler,
  });
  try {
    if (options.migrate !== false) await migrateToLatest(db);
  } catch (err) {
    await db.destroy();
    await embedded?.stop();
    throw err;
  }
  return {
    db,
    url,
    embedded,
    async close() {
      await db.destroy();
      await embedded?.stop();
    },
  };
}

/** Create `name` on the server of `serverUrl` if it is missing; returns its connection string. */
export async function ensureDatabase(serverUrl: string, name: string): Promise<string> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) {
      await client.query(`create database ${client.escapeIdentifier(name)}`).catch((err: { code?: string }) => {
        if (err.code !== '42P04') throw err; // created meanwhile by another instance
      });
    }
  } finally {
    await client.end();
  }
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}
