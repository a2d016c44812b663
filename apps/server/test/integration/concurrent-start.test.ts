import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { connectDatabase, ownerDb, pendingMigrations, sql, type DatabaseHandle } from '@lampstand/db';
import '@lampstand/db/test/fresh-db';
import { loadConfig } from '../../src/config.js';
import { startRuntime, type AppRuntime } from '../../src/app-deps.js';

const serverUrl = inject('pgServerUrl');
const created: string[] = [];

async function admin<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

/** An empty database (not the migrated template): what a first deployment starts on. */
async function emptyDatabase(): Promise<string> {
  const name = `lampstand_start_${crypto.randomBytes(5).toString('hex')}`;
  await admin((c) => c.query(`create database ${name}`));
  created.push(name);
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

afterAll(async () => {
  for (const name of created) await admin((c) => c.query(`drop database if exists ${name} with (force)`));
});

/** What `pnpm serve` and `pnpm worker` do before they take requests: migrate, then start the job queue. */
async function bootstrap(url: string): Promise<{ database: DatabaseHandle; runtime: AppRuntime }> {
  const database = await connectDatabase({ databaseUrl: url, dataDir: '/nonexistent' });
  const config = { ...loadConfig({ NODE_ENV: 'test' }), databaseUrl: url, logLevel: 'silent' };
  const runtime = await startRuntime(config, database.db, url, { work: false });
  return { database, runtime };
}

describe('two processes starting at once on a fresh database', () => {
  it('both migrate and start the job queue without an error, and the schema is complete', async () => {
    // Several fresh databases: the race needs both start-ups to overlap, which one pair may not.
    for (let round = 0; round < 3; round++) {
      const url = await emptyDatabase();
      const results = await Promise.allSettled([bootstrap(url), bootstrap(url)]);
      const errors = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
      for (const r of results) {
        if (r.status === 'fulfilled') {
          await r.value.runtime.close();
          await r.value.database.close();
        }
      }
      expect(errors).toEqual([]);

      const check = await connectDatabase({ databaseUrl: url, dataDir: '/nonexistent', migrate: false });
      try {
        expect(await pendingMigrations(check.db)).toBe(0);
        const queues = await sql<{ n: number }>`select count(*)::int as n from pgboss.queue`.execute(ownerDb(check.db));
        expect(queues.rows[0]!.n).toBeGreaterThan(0);
      } finally {
        await check.close();
      }
    }
  }, 120_000);
});
