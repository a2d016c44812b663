import { describe, expect, it, afterAll } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../test/fresh-db.js';
import { ensureAppRole } from './app-role.js';
import { createDb } from './client.js';
import { connectDatabase } from './connect.js';
import { migrateToLatest } from './migrate.js';
import { APP_ROLE, ownerDb, rowSecurity, tenantDb } from './tenancy.js';

// The app logs in as its own role (DATABASE_URL), the owner only migrates
// (DATABASE_OWNER_URL), so an injected statement cannot `reset role` back to the owner.
describe('the application logs in as its own role', async () => {
  const owner = await freshDatabase();
  await ensureAppRole(owner.db, { loginPassword: 'test-only-password-0123' });
  const appUrl = new URL(owner.url);
  appUrl.username = APP_ROLE;
  appUrl.password = 'test-only-password-0123';
  const app = createDb(appUrl.toString(), { max: 2, ownerUrl: owner.url });
  afterAll(() => app.destroy());

  it('its connections are lampstand_app even after `reset role`, and cannot become the owner', async () => {
    expect(await rowSecurity(app)).toEqual({ status: 'enforced', login: APP_ROLE });
    const after = await tenantDb(app, 1)
      .connection()
      .execute(async (conn) => {
        await sql`reset role`.execute(conn);
        return (await sql<{ u: string }>`select current_user as u`.execute(conn)).rows[0]!.u;
      });
    expect(after).toBe(APP_ROLE);
    await expect(sql`set role postgres`.execute(tenantDb(app, 1))).rejects.toThrow(/permission denied/);
  });

  it('migrations still run, as the owner (DATABASE_OWNER_URL)', async () => {
    const r = await migrateToLatest(app, { appLogin: APP_ROLE });
    expect(r.error).toBeUndefined();
  });

  it('logged in as the owner the policies still apply, but a statement could leave them: climbable', async () => {
    expect((await rowSecurity(owner.db)).status).toBe('climbable');
    const after = await tenantDb(owner.db, 1)
      .connection()
      .execute(async (conn) => {
        await sql`reset role`.execute(conn);
        return (await sql<{ u: string }>`select current_user as u`.execute(conn)).rows[0]!.u;
      });
    expect(after).not.toBe(APP_ROLE); // what the app role login prevents
  });

  it('given both URLs, the owner gives lampstand_app the login DATABASE_URL names, and the app uses it', async () => {
    // As on a server where the role was made by an earlier start, without a login.
    await sql`alter role lampstand_app nologin`.execute(ownerDb(owner.db));
    const both = await connectDatabase({
      databaseUrl: appUrl.toString(),
      databaseOwnerUrl: owner.url,
      dataDir: '/nonexistent',
      poolMax: 2,
    });
    try {
      expect(await rowSecurity(both.db)).toEqual({ status: 'enforced', login: APP_ROLE });
      expect(both.ownerUrl).toBe(owner.url);
    } finally {
      await both.close();
    }
  });

  it('RLS=off says so', async () => {
    const off = createDb(owner.url, { max: 1, rls: false });
    try {
      expect((await rowSecurity(off)).status).toBe('off');
    } finally {
      await off.destroy();
    }
  });
});
