import crypto from 'node:crypto';
import path from 'node:path';
import { createDb, type Db } from './client.js';
import { APP_ROLE } from './tenancy.js';
import { secretInDataDir } from './secrets.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded.js';
import { migrateToLatest } from './migrate.js';

export interface DatabaseHandle {
  db: Db;
  /** The application's own login. */
  url: string;
  /** The tables' owner, for what must be: migrations, pg-boss's own schema. Unset: `url` is the owner. */
  ownerUrl?: string;
  /** Set when the server is the embedded one this process started. */
  embedded?: EmbeddedDatabase;
  close(): Promise<void>;
}

export interface ConnectOptions {
  databaseUrl?: string;
  /** `DATABASE_OWNER_URL`: the tables' owner, for migrations; `databaseUrl` is then the app's own login. */
  databaseOwnerUrl?: string;
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
 * `DATABASE_URL` when given (with `DATABASE_OWNER_URL`, the owner's login for migrations);
 * otherwise an embedded real PostgreSQL under `DATA_DIR/postgres`, with a `lampstand` database,
 * where it makes both: the superuser owns the tables and migrates, and the app logs in as
 * `lampstand_app` with a password kept in `DATA_DIR/app-role-password`. Runs migrations unless
 * told not to.
 */
export async function connectDatabase(options: ConnectOptions): Promise<DatabaseHandle> {
  let embedded: EmbeddedDatabase | undefined;
  let url = options.databaseUrl;
  let ownerUrl = options.databaseUrl ? options.databaseOwnerUrl : undefined;
  let loginPassword: string | undefined;
  if (!url) {
    embedded = await startEmbeddedPostgres({
      dataDir: path.join(options.dataDir, 'postgres'),
      port: options.embeddedPort ?? 54329,
      log: options.log,
    });
    ownerUrl = await ensureDatabase(embedded.url, 'lampstand');
    loginPassword = secretInDataDir(options.dataDir, 'app-role-password', () =>
      crypto.randomBytes(24).toString('base64url'),
    );
    const app = new URL(ownerUrl);
    app.username = APP_ROLE;
    app.password = loginPassword;
    url = app.toString();
  }
  const db = createDb(url, {
    rls: options.rls,
    max: options.poolMax,
    readUrls: options.readUrls,
    pooler: options.pooler,
    ownerUrl,
  });
  try {
    const app = new URL(url);
    const appLogin = ownerUrl ? decodeURIComponent(app.username) || undefined : undefined;
    // With both URLs and the app logging in as lampstand_app itself, the owner gives the role the
    // login and password DATABASE_URL names (so setting up is giving the two URLs); a password of
    // other characters than letters, digits, - and _ is left for whoever made the role to set.
    const given = decodeURIComponent(app.password);
    if (!loginPassword && appLogin === APP_ROLE && /^[A-Za-z0-9_-]{16,200}$/.test(given)) loginPassword = given;
    if (options.migrate !== false) await migrateToLatest(db, { loginPassword, appLogin });
  } catch (err) {
    await db.destroy();
    await embedded?.stop();
    throw err;
  }
  return {
    db,
    url,
    ownerUrl,
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
