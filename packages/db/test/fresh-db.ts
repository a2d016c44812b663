import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { createDb, type Db } from '../src/client.js';
import { createTestDatabase, type TestDatabase } from '../src/testing.js';
import './provided.js';

/** A new migrated database (not dropped automatically). */
export function createFreshDatabase(): Promise<TestDatabase> {
  return createTestDatabase(inject('pgServerUrl'), inject('pgTemplate'));
}

/** A fresh migrated database for this test file, dropped when the file's tests end. */
export async function freshDatabase(options: { poolMax?: number } = {}): Promise<TestDatabase> {
  const tdb = await createTestDatabase(inject('pgServerUrl'), inject('pgTemplate'), options);
  afterAll(() => tdb.drop());
  return tdb;
}

/**
 * An empty database (no migrations run) for this test file, dropped when its tests end: for
 * migration tests that migrate it part of the way, write rows as they were, then migrate the rest.
 */
export async function emptyDatabase(options: { poolMax?: number } = {}): Promise<{ db: Db; url: string }> {
  const serverUrl = inject('pgServerUrl');
  const name = `lampstand_t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = createDb(url.toString(), { max: options.poolMax ?? 2 });
  afterAll(async () => {
    await db.destroy();
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  });
  return { db, url: url.toString() };
}
