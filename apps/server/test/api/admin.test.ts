import { describe, expect, it } from 'vitest';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';

const app = await startTestApp();
const admin = await registerChurch(app.url, 'Platform Team'); // first account: admin
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');

describe('GET /api/admin/users', () => {
  it('lists every account with id, churchName, username, email, role and sending trust, and no secrets', async () => {
    const res = await admin.client.get('/api/admin/users');
    expect(res.status).toBe(200);
    expect(res.body.map((u: { churchName: string }) => u.churchName)).toEqual([
      'Platform Team',
      'Grace Church',
      'Hope Chapel',
    ]);
    for (const u of res.body) {
      expect(Object.keys(u).sort()).toEqual([
        'churchName',
        'createdAt',
        'dailyRecipientLimit',
        'email',
        'emailVerified',
        'id',
        'role',
        'username',
      ]);
    }
    expect(res.body[0].role).toBe('admin');
    expect(res.body[1].role).toBe('church');
  });

  it('answers 403 to a church and 401 to a visitor', async () => {
    const church = await grace.client.get('/api/admin/users');
    expect(church.status).toBe(403);
    expect(church.body).toEqual({ message: 'Administrator access required', code: 'FORBIDDEN' });
    expect((await new HttpClient(app.url).get('/api/admin/users')).status).toBe(401);
  });
});

describe('impersonation', () => {
  it('acts as the church, marks the session user, audits start and stop, and returns to the admin', async () => {
    // A session of its own: starting impersonation replaces the session id (the old one stops working).
    const client = new HttpClient(app.url);
    await client.post('/api/login', { username: admin.user.username, password: admin.password });

    const start = await client.post(`/api/admin/impersonate/${grace.user.id}`);
    expect(start.status).toBe(200);
    expect(start.body.message).toBe('You are now impersonating Grace Church');

    const me = await client.get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: grace.user.id,
      username: grace.user.username,
      churchName: 'Grace Church',
      email: grace.user.email,
      role: 'church',
      _impersonatedBy: { id: admin.user.id, username: admin.user.username },
    });

    // Every action acts as the church: admin paths are closed while impersonating.
    expect((await client.get('/api/admin/users')).status).toBe(403);
    expect((await client.post(`/api/admin/impersonate/${hope.user.id}`)).status).toBe(403);

    const stop = await client.post('/api/admin/stop-impersonating');
    expect(stop.status).toBe(200);
    expect(stop.body.message).toBe('Impersonation ended');
    const back = await client.get('/api/user');
    expect(back.body.id).toBe(admin.user.id);
    expect(back.body._impersonatedBy).toBeUndefined();

    const audit = await app.db
      .selectFrom('impersonationAudit')
      .select(['adminId', 'targetId', 'action', 'at'])
      .orderBy('id')
      .execute();
    expect(audit.map((a) => [a.adminId, a.targetId, a.action])).toEqual([
      [admin.user.id, grace.user.id, 'start'],
      [admin.user.id, grace.user.id, 'stop'],
    ]);
    expect(audit[0]!.at).toBeInstanceOf(Date);
  });

  it('refuses to impersonate an admin (400) or an unknown account (404)', async () => {
    const self = await admin.client.post(`/api/admin/impersonate/${admin.user.id}`);
    expect(self.status).toBe(400);
    expect(self.body.message).toBe('Administrators cannot be impersonated');
    const missing = await admin.client.post('/api/admin/impersonate/999999');
    expect(missing.status).toBe(404);
    const bad = await admin.client.post('/api/admin/impersonate/abc');
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0].path).toBe('id');
  });

  it('is for admins only', async () => {
    expect((await grace.client.post(`/api/admin/impersonate/${hope.user.id}`)).status).toBe(403);
    expect((await grace.client.post('/api/admin/stop-impersonating')).status).toBe(403);
    expect((await new HttpClient(app.url).post(`/api/admin/impersonate/${hope.user.id}`)).status).toBe(401);
    expect((await new HttpClient(app.url).post('/api/admin/stop-impersonating')).status).toBe(401);
  });

  it('stop without impersonating is a 400', async () => {
    const res = await admin.client.post('/api/admin/stop-impersonating');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('You are not impersonating anyone');
  });

  it('logging out while impersonating ends both', async () => {
    const { password } = admin;
    const client = new HttpClient(app.url);
    await client.post('/api/login', { username: admin.user.username, password });
    await client.post(`/api/admin/impersonate/${hope.user.id}`);
    expect((await client.get('/api/user')).body.churchName).toBe('Hope Chapel');
    await client.post('/api/logout');
    expect((await client.get('/api/user')).status).toBe(401);
  });
});
