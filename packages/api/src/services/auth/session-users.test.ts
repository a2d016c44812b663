import { describe, expect, it } from 'vitest';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from './register-user.js';
import { resolveSessionUsers } from './session-users.js';

const { db } = await freshDatabase();

describe('resolveSessionUsers', async () => {
  const admin = await registerUser(db, {
    username: 'root',
    password: 'secret12',
    churchName: 'Platform',
    email: 'root@example.org',
  });
  const church = await registerUser(db, {
    username: 'grace',
    password: 'secret12',
    churchName: 'Grace',
    email: 'grace@example.org',
    role: 'admin',
  });
  const other = await registerUser(db, {
    username: 'hope',
    password: 'secret12',
    churchName: 'Hope',
    email: 'hope@example.org',
  });

  it('first account is admin, later ones church whatever they ask for', () => {
    expect(admin.role).toBe('admin');
    expect(church.role).toBe('church');
  });

  it('no session, no user', async () => {
    expect(await resolveSessionUsers(db, {})).toEqual({ user: null, effectiveUser: null });
  });

  it('an admin impersonating acts as the church, marked with _impersonatedBy', async () => {
    const r = await resolveSessionUsers(db, {
      userId: admin.id,
      impersonatingUserId: church.id,
      impersonationStartedAt: Date.now(),
    });
    expect(r.user?.id).toBe(admin.id);
    expect(r.effectiveUser).toEqual({ ...church, _impersonatedBy: { id: admin.id, username: 'root' } });
  });

  it('a church cannot impersonate through a forged session value', async () => {
    const r = await resolveSessionUsers(db, {
      userId: church.id,
      impersonatingUserId: other.id,
      impersonationStartedAt: Date.now(),
    });
    expect(r.effectiveUser?.id).toBe(church.id);
    expect(r.effectiveUser?._impersonatedBy).toBeUndefined();
  });

  it('uses the users read with the session when they name every id, else reads them', async () => {
    const renamed = { ...church, username: 'read-with-the-session' };
    const withSession = await resolveSessionUsers(db, { userId: church.id }, { users: [renamed] });
    expect(withSession.user).toEqual(renamed);
    // The impersonated church is missing from what was read: both are read again.
    const partial = await resolveSessionUsers(
      db,
      { userId: admin.id, impersonatingUserId: church.id, impersonationStartedAt: Date.now() },
      { users: [admin] },
    );
    expect(partial.effectiveUser?.id).toBe(church.id);
    expect(partial.effectiveUser?.username).toBe('grace');
  });

  it('a deleted account signs the session out', async () => {
    await db.deleteFrom('users').where('id', '=', other.id).execute();
    expect(await resolveSessionUsers(db, { userId: other.id })).toEqual({ user: null, effectiveUser: null });
  });

  it('impersonation ends after an hour (and without a start time)', async () => {
    const started = Date.now() - 61 * 60 * 1000;
    const late = await resolveSessionUsers(db, {
      userId: admin.id,
      impersonatingUserId: church.id,
      impersonationStartedAt: started,
    });
    expect(late.effectiveUser?.id).toBe(admin.id);
    const noStart = await resolveSessionUsers(db, { userId: admin.id, impersonatingUserId: church.id });
    expect(noStart.effectiveUser?.id).toBe(admin.id);
    const inTime = await resolveSessionUsers(
      db,
      { userId: admin.id, impersonatingUserId: church.id, impersonationStartedAt: started },
      { now: started + 59 * 60 * 1000 },
    );
    expect(inTime.effectiveUser?.id).toBe(church.id);
  });
});
