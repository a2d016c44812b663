import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { HttpClient, registerChurch } from '../helpers/test-app.js';
import { sharedAdmin, sharedTestApp } from '../helpers/shared-app.js';

// Session details: logout clears the cookie, impersonation gets a new session id.
const app = await sharedTestApp();
const admin = await sharedAdmin();
const church = await registerChurch(app.url, 'Grace Church');

describe('logout', () => {
  it('sends a cookie-clearing Set-Cookie and the old cookie stops working', async () => {
    const { client } = await registerChurch(app.url);
    const old = client.cookies.get('lampstand.sid')!;
    const res = await client.post('/api/logout');
    expect(res.status).toBe(200);
    const cleared = res.headers.getSetCookie().find((c) => c.startsWith('lampstand.sid='));
    expect(cleared).toMatch(/^lampstand\.sid=;/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/i);
    const replay = new HttpClient(app.url, { cookie: `lampstand.sid=${old}` });
    expect((await replay.get('/api/user')).status).toBe(401);
  });
});

describe('impersonation', () => {
  it('starting it issues a new session id; the old one no longer acts as anyone', async () => {
    const before = admin.client.cookies.get('lampstand.sid')!;
    const res = await admin.client.post(`/api/admin/impersonate/${church.user.id}`);
    expect(res.status).toBe(200);
    const after = admin.client.cookies.get('lampstand.sid')!;
    expect(after).not.toBe(before);
    expect((await admin.client.get('/api/user')).body.username).toBe(church.user.username);
    const replay = new HttpClient(app.url, { cookie: `lampstand.sid=${before}` });
    expect((await replay.get('/api/user')).status).toBe(401);
  });
});

describe('TRUST_PROXY', () => {
  it('takes a hop count or addresses, never trust-all', () => {
    expect(loadConfig({ TRUST_PROXY: '' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16' }).trustProxy).toEqual(['10.0.0.1', '10.1.0.0/16']);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });
});
