import { beforeAll, describe, expect, it } from 'vitest';
import { ownerDb, sql } from '@lampstand/db';
import { registerChurch, startTestApp } from '../helpers/test-app.js';
import { SESSION_COOKIE } from '../../src/server.js';
import { SESSION_REFRESH_MS } from '../../src/session-store.js';

const app = await startTestApp();
const DAY_MS = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  // Count every write to `sessions` (a trigger sees each row written, whatever the statement).
  // Made by the tables' owner; the function runs as its owner, not as the application's role.
  const owner = ownerDb(app.db);
  await sql`create table session_writes (op text not null, sid text not null)`.execute(owner);
  await sql`
    create function count_session_write() returns trigger language plpgsql security definer as $$
    begin insert into session_writes values (tg_op, new.sid); return new; end $$`.execute(owner);
  await sql`
    create trigger count_session_write after insert or update on sessions
    for each row execute function count_session_write()`.execute(owner);
});

async function writes(op: 'INSERT' | 'UPDATE'): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from session_writes where op = ${op}`.execute(
    ownerDb(app.db),
  );
  return rows[0]!.n;
}

describe('session writes', () => {
  // 100 requests in a row: a generous timeout for a busy machine (nothing here is timed).
  it('reads a signed-in session 100 times without rewriting it', { timeout: 180_000 }, async () => {
    const church = await registerChurch(app.url);
    const updatesBefore = await writes('UPDATE');
    for (let i = 0; i < 50; i++) {
      expect((await church.client.get('/api/contacts')).status).toBe(200);
      const trpc = await church.client.get('/trpc/dashboard.stats');
      expect(trpc.status).toBe(200);
      expect(trpc.headers.getSetCookie()).toEqual([]);
    }
    expect((await writes('UPDATE')) - updatesBefore).toBeLessThanOrEqual(1);
  });

  it('saves a changed session (sign out and in again) and still answers the signed-in user', async () => {
    const church = await registerChurch(app.url);
    const insertsBefore = await writes('INSERT');
    await church.client.post('/api/logout');
    expect((await church.client.get('/api/user')).status).toBe(401);
    const login = await church.client.post('/api/login', { username: church.user.username, password: church.password });
    expect(login.status).toBe(200);
    expect(await writes('INSERT')).toBeGreaterThan(insertsBefore);
    expect((await church.client.get('/api/user')).body.username).toBe(church.user.username);
  });

  it('pushes the expiry forward once it is older than the refresh interval, then not again', async () => {
    const church = await registerChurch(app.url);
    const sid = decodeURIComponent(church.client.cookies.get(SESSION_COOKIE)!).split('.')[0]!;
    // Age the stored session: saved as if twice the refresh interval ago.
    const aged = new Date(Date.now() + 14 * DAY_MS - 2 * SESSION_REFRESH_MS);
    await sql`
      update sessions set expires_at = ${aged},
        sess = jsonb_set(sess::jsonb, '{cookie,expires}', to_jsonb(${aged.toISOString()}::text))
      where sid = ${sid}`.execute(app.db);
    const updatesBefore = await writes('UPDATE');

    const first = await church.client.get('/api/contacts');
    expect(first.status).toBe(200);
    const cookie = first.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    expect(cookie).toMatch(/Expires=/);
    expect(await writes('UPDATE')).toBe(updatesBefore + 1);
    const row = await app.db
      .selectFrom('sessions')
      .select('expiresAt')
      .where('sid', '=', sid)
      .executeTakeFirstOrThrow();
    expect(row.expiresAt.getTime()).toBeGreaterThan(aged.getTime() + SESSION_REFRESH_MS);

    for (let i = 0; i < 5; i++) expect((await church.client.get('/api/contacts')).status).toBe(200);
    expect(await writes('UPDATE')).toBe(updatesBefore + 1);
  });
});
