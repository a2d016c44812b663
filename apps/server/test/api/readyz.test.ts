import { describe, expect, it } from 'vitest';
import { sql } from '@lampstand/db';
import { HttpClient, startTestApp } from '../helpers/test-app.js';

// /readyz is readiness (database up, migrations applied), separate from /healthz (liveness).
const app = await startTestApp();
const client = new HttpClient(app.url);

describe('GET /readyz', () => {
  it('is ready when the database is migrated', async () => {
    const res = await client.get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready' });
  });

  it('is not ready while a migration is pending', async () => {
    const last = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(
      app.db,
    );
    const name = last.rows[0]!.name;
    await sql`delete from kysely_migration where name = ${name}`.execute(app.db);
    const res = await client.get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'migrating', pendingMigrations: 1 });
    await sql`insert into kysely_migration (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(
      app.db,
    );
    expect((await client.get('/readyz')).status).toBe(200);
    // /healthz only reports the database.
    expect((await client.get('/healthz')).status).toBe(200);
  });
});
