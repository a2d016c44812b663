import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { createDb, type Db } from './client.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded.js';
import { migrateToLatest } from './migrate.js';
import { migrations } from './migrations/index.js';
import { ensureAppRole } from './app-role.js';

/**
 * Test databases on a real PostgreSQL: TEST_DATABASE_URL's server when set, else an embedded one
 * started once per test run. The migrations run once into a template database; each test file
 * gets its own copy (CREATE DATABASE ... TEMPLATE), so files run in parallel without sharing rows.
 */

export interface TestServer {
  /** Connection string of a maintenance database on the server. */
  serverUrl: string;
  templateName: string;
  stop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** More to build into the template once, after the migrations (the server's tests: the job queue). */
export interface TemplateExtra {
  /** Changes whenever what `build` makes changes (versions, names): a new template is made then. */
  key: string;
  build(databaseUrl: string): Promise<void>;
}

function templateNameFor(extra?: TemplateExtra): string {
  // Names and code: an edited (not yet landed) migration, or new grants, get a new template.
  const source = Object.entries(migrations)
    .map(([name, m]) => `${name}\n${m.up.toString()}`)
    .concat(ensureAppRole.toString())
    .concat(extra ? [extra.key, extra.build.toString()] : [])
    .join('\n');
  const h = crypto.createHash('sha1').update(source).digest('hex').slice(0, 10);
  return `lampstand_tmpl_${h}`;
}

/** A throwaway test server need not survive a power cut: its writes skip the disk flushes. */
export const TEST_SERVER_SETTINGS = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };

/** Start (or reach) the server and make the migrated template. For vitest's globalSetup. */
export async function startTestServer(log?: (l: string) => void, extra?: TemplateExtra): Promise<TestServer> {
  let embedded: EmbeddedDatabase | undefined;
  let serverUrl = process.env.TEST_DATABASE_URL;
  let tmpDir: string | undefined;
  if (!serverUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lampstand-test-pg-'));
    tmpDir = dir;
    fs.chmodSync(dir, 0o777);
    embedded = await startEmbeddedPostgres({
      dataDir: path.join(dir, 'data'),
      port: 0,
      persistent: false,
      log,
      settings: TEST_SERVER_SETTINGS,
    });
    serverUrl = embedded.url;
  }
  const templateName = templateNameFor(extra);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    // One run at a time builds the template (several packages' test runs may start together).
    await admin.query(`select pg_advisory_lock(hashtext('lampstand:test-template'))`);
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [templateName]);
    if (!rowCount) {
      const building = `${templateName}_build_${process.pid}`;
      await admin.query(`drop database if exists ${building}`);
      await admin.query(`create database ${building}`);
      const db = createDb(withDatabase(serverUrl, building), { max: 2 });
      try {
        await migrateToLatest(db);
      } finally {
        await db.destroy();
      }
      await extra?.build(withDatabase(serverUrl, building));
      await admin.query(`alter database ${building} rename to ${templateName}`);
    }
    await admin.query(`select pg_advisory_unlock(hashtext('lampstand:test-template'))`);
  } finally {
    await admin.end();
  }
  return {
    serverUrl,
    templateName,
    async stop() {
      await embedded?.stop();
      if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
    },
  };
}

export interface TestDatabase {
  db: Db;
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database of its own (named `name`, else a random `lampstand_t_…`). Its pools hold `poolMax` connections each (3: many test
 * files and their apps share one PostgreSQL's 100 connections); a test that holds more at once
 * (the export slots) asks for more.
 */
export async function createTestDatabase(
  serverUrl: string,
  templateName: string,
  options: { poolMax?: number; name?: string } = {},
): Promise<TestDatabase> {
  const name = options.name ?? `lampstand_t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${templateName}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl, name);
  const db = createDb(url, { max: options.poolMax ?? 3 });
  return {
    db,
    url,
    name,
    async drop() {
      await db.destroy();
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** Drop every database whose name starts with `prefix` (test databases a run left behind on purpose). */
export async function dropTestDatabases(serverUrl: string, prefix: string): Promise<void> {
  if (!/^lampstand_t_\w+$/.test(prefix)) throw new Error(`not a test database prefix: ${prefix}`);
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      'select datname from pg_database where starts_with(datname, $1)',
      [prefix],
    );
    for (const { datname } of rows) await client.query(`drop database if exists ${datname} with (force)`);
  } finally {
    await client.end();
  }
}
