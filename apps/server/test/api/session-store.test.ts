import { afterAll, describe, expect, it } from 'vitest';
import type { Session } from 'fastify';
import { createDb } from '@lampstand/db';
import { PgSessionStore } from '../../src/session-store.js';
import { registerChurch, startTestApp } from '../helpers/test-app.js';

// The session store reads the users a session names with the session itself (one statement per
// signed-in request instead of two); createContext takes them once.
const app = await startTestApp();
const admin = await registerChurch(app.url, 'Platform Team');
const church = await registerChurch(app.url, 'Store Church');
const store = new PgSessionStore(app.db);

const get = (sid: string, from = store) =>
  new Promise<Session | null | undefined>((resolve, reject) =>
    from.get(sid, (err, s) => (err ? reject(new Error('session store', { cause: err })) : resolve(s))),
  );
const set = (sid: string, sess: Record<string, unknown>, from = store) =>
  new Promise<void>((resolve, reject) =>
    from.set(sid, { ...sess, cookie: { expires: new Date(Date.now() + 60_000) } } as unknown as Session, (err) =>
      err ? reject(new Error('session store', { cause: err })) : resolve(),
    ),
  );
const destroy = (sid: string, from: PgSessionStore) =>
  new Promise<void>((resolve, reject) =>
    from.destroy(sid, (err) => (err ? reject(new Error('session store', { cause: err })) : resolve())),
  );

// Behind a pooler in transaction mode the store's statements go out alone (no church, no bypass).
const pooled = createDb(app.databaseUrl, { pooler: 'transaction', max: 2 });
afterAll(() => pooled.destroy());

describe('PgSessionStore reads the session with its users', () => {
  it('the signed-in user, once', async () => {
    await set('store-1', { userId: church.user.id });
    expect((await get('store-1'))?.userId).toBe(church.user.id);
    expect(store.takeUsers('store-1')).toEqual([
      {
        id: church.user.id,
        username: church.user.username,
        churchName: 'Store Church',
        email: church.user.email,
        role: 'church',
      },
    ]);
    expect(store.takeUsers('store-1')).toBeUndefined();
  });

  it('an administrator and the church they act as', async () => {
    await set('store-2', { userId: admin.user.id, impersonatingUserId: church.user.id, impersonationStartedAt: 1 });
    await get('store-2');
    expect(
      store
        .takeUsers('store-2')
        ?.map((u) => u.id)
        .sort((a, b) => a - b),
    ).toEqual([admin.user.id, church.user.id].sort((a, b) => a - b));
  });

  it('no user in the session, a forged id, an unknown or expired session', async () => {
    await set('store-3', {});
    await get('store-3');
    expect(store.takeUsers('store-3')).toEqual([]);
    await set('store-4', { userId: 'not a number' });
    await get('store-4');
    expect(store.takeUsers('store-4')).toEqual([]);
    expect(await get('store-unknown')).toBeNull();
    expect(store.takeUsers('store-unknown')).toBeUndefined();
    await app.db
      .updateTable('sessions')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('sid', '=', 'store-1')
      .execute();
    expect(await get('store-1')).toBeNull();
    expect(store.takeUsers('store-1')).toBeUndefined();
  });

  it('behind a pooler in transaction mode: written, read with its users, expired and destroyed', async () => {
    const viaPooler = new PgSessionStore(pooled);
    await set('store-5', { userId: church.user.id }, viaPooler);
    expect((await get('store-5', viaPooler))?.userId).toBe(church.user.id);
    expect(viaPooler.takeUsers('store-5')?.map((u) => u.id)).toEqual([church.user.id]);
    await destroy('store-5', viaPooler);
    expect(await get('store-5', viaPooler)).toBeNull();
    await set('store-6', { userId: church.user.id }, viaPooler);
    await app.db
      .updateTable('sessions')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('sid', '=', 'store-6')
      .execute();
    expect(await get('store-6', viaPooler)).toBeNull();
  });

  it('a signed-in request answers as its user', async () => {
    const res = await church.client.get('/api/user');
    expect(res.status).toBe(200);
    expect(res.body.username).toBe(church.user.username);
  });
});
