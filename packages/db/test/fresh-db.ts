import { afterAll, inject } from 'vitest';
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
