import { describe, expect, it } from 'vitest';
import { restRoutes } from '../../src/rest/route-list.js';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';

// API keys for integrators, sent as `Authorization: Bearer …`.
const app = await startTestApp();
const admin = await registerChurch(app.url, 'Platform Team'); // first account: admin
const church = await registerChurch(app.url, 'Grace Church');
const other = await registerChurch(app.url, 'Hope Church');

/** A script with a key and no cookie. */
const withKey = (token: string, headers: Record<string, string> = {}) =>
  new HttpClient(app.url, { authorization: `Bearer ${token}`, ...headers });

async function newKey(client: HttpClient, name = 'Zapier', scope?: 'read' | 'write') {
  const res = await client.post('/api/api-keys', { name, ...(scope ? { scope } : {}) });
  expect(res.status).toBe(201);
  return res.body as {
    id: number;
    name: string;
    scope: 'read' | 'write';
    token: string;
    tokenPrefix: string;
    lastUsedAt: string | null;
  };
}

describe('API keys', () => {
  it('are created with a name, shown once and stored hashed; the list never holds the token', async () => {
    const key = await newKey(church.client, 'Website sync');
    expect(key.token).toMatch(/^lsk_[A-Za-z0-9_-]{43}$/);
    expect(key.token.startsWith(key.tokenPrefix)).toBe(true);
    const list = await church.client.get('/api/api-keys');
    expect(list.status).toBe(200);
    const row = list.body.find((k: { id: number }) => k.id === key.id);
    expect(row).toMatchObject({ name: 'Website sync', lastUsedAt: null });
    expect(row.token).toBeUndefined();
    expect(JSON.stringify(list.body)).not.toContain(key.token);
    const stored = await app.db.selectFrom('apiKeys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(key.token);
    // Another church never sees them.
    expect((await other.client.get('/api/api-keys')).body).toEqual([]);
  });

  it('acts as its church on /api/contacts without a cookie, and records when it was last used', async () => {
    const key = await newKey(church.client);
    const created = await withKey(key.token).post('/api/contacts', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.org',
      phone: '412 345 678',
      metadata: { countryCode: '+61' },
    });
    expect(created.status).toBe(201);
    const listed = await withKey(key.token).get('/api/contacts');
    expect(listed.status).toBe(200);
    expect(listed.body.map((c: { firstName: string }) => c.firstName)).toContain('Ada');
    expect((await other.client.get('/api/contacts')).body).toEqual([]);
    const row = (await church.client.get('/api/api-keys')).body.find((k: { id: number }) => k.id === key.id);
    expect(row.lastUsedAt).not.toBeNull();
    // tRPC too.
    const me = await withKey(key.token).get('/trpc/auth.me');
    expect(me.status).toBe(200);
    expect(me.body.result.data.id).toBe(church.user.id);
  });

  it('needs no CSRF check: a JSON write with a foreign Origin and Sec-Fetch-Site passes', async () => {
    const key = await newKey(church.client);
    const res = await withKey(key.token, { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' }).post(
      '/api/contact-lists',
      { name: 'From a script' },
    );
    expect(res.status).toBe(201);
  });

  it('with a key, the cookie is ignored: a revoked key is 401 even beside a valid session cookie', async () => {
    const key = await newKey(church.client);
    expect((await withKey(key.token).get('/api/contacts')).status).toBe(200);
    const revoked = await church.client.delete(`/api/api-keys/${key.id}`);
    expect(revoked.status).toBe(200);
    const res = await withKey(key.token).get('/api/contacts');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
    // The session cookie of the same church does not rescue a request that sends a key.
    const both = new HttpClient(app.url, { authorization: `Bearer ${key.token}` });
    both.cookies = church.client.cookies;
    expect((await both.get('/api/contacts')).status).toBe(401);
    expect((await church.client.get('/api/api-keys')).body.some((k: { id: number }) => k.id === key.id)).toBe(false);
    // Revoking again, or another church's key → 404.
    expect((await church.client.delete(`/api/api-keys/${key.id}`)).status).toBe(404);
    const hers = await newKey(other.client);
    expect((await church.client.delete(`/api/api-keys/${hers.id}`)).status).toBe(404);
    expect((await withKey(hers.token).get('/api/contacts')).status).toBe(200);
  });

  it('an unknown or malformed token is 401', async () => {
    expect((await withKey('lsk_nope').get('/api/contacts')).status).toBe(401);
    expect((await withKey('').get('/api/contacts')).status).toBe(401);
    expect((await withKey('x'.repeat(5000)).get('/api/contacts')).status).toBe(401);
  });

  const adminRows = restRoutes.filter((r) => r.access === 'admin');
  it.each(adminRows.map((r) => [`${r.method} ${r.path}`, r] as const))(
    "%s with an administrator's key → 403",
    async (_, r) => {
      const key = await newKey(admin.client, 'admin key');
      const res = await withKey(key.token).request(
        r.method,
        r.path.replace(/\{\w+\}/g, String(church.user.id)),
        r.method === 'GET' ? undefined : {},
      );
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    },
  );

  it("never starts impersonation nor signs in, and an administrator's key acts as that account only", async () => {
    const key = await newKey(admin.client, 'admin key');
    const res = await withKey(key.token).post(`/api/admin/impersonate/${church.user.id}`);
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
    const login = await withKey(key.token).post('/api/login', { username: church.user.username, password: 'x' });
    expect(login.status).not.toBe(200);
    expect(login.headers.getSetCookie()).toEqual([]);
    expect((await withKey(key.token).get('/api/user')).body.id).toBe(admin.user.id);
  });

  it('cannot list, create or revoke keys (only the signed-in session can)', async () => {
    const key = await newKey(church.client);
    expect((await withKey(key.token).get('/api/api-keys')).status).toBe(403);
    expect((await withKey(key.token).post('/api/api-keys', { name: 'more' })).status).toBe(403);
    expect((await withKey(key.token).delete(`/api/api-keys/${key.id}`)).status).toBe(403);
  });

  it('records who made each key; the list shows it', async () => {
    const key = await newKey(church.client, 'Made by me');
    expect(key).toMatchObject({ createdByUserId: church.user.id, createdBy: church.user.username });
    const row = (await church.client.get('/api/api-keys')).body.find((k: { id: number }) => k.id === key.id);
    expect(row).toMatchObject({ createdByUserId: church.user.id, createdBy: church.user.username });
  });

  it('an administrator impersonating a church cannot create a key for it (403); after stopping, the church has none new', async () => {
    const before = (await church.client.get('/api/api-keys')).body.length;
    expect((await admin.client.post(`/api/admin/impersonate/${church.user.id}`)).status).toBe(200);
    const res = await admin.client.post('/api/api-keys', { name: 'Backdoor' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'FORBIDDEN',
      message: 'API keys cannot be created while impersonating a church',
    });
    expect((await admin.client.post('/api/admin/stop-impersonating')).status).toBe(200);
    expect((await church.client.get('/api/api-keys')).body.length).toBe(before);
    const stored = await app.db.selectFrom('apiKeys').select('id').where('name', '=', 'Backdoor').execute();
    expect(stored).toEqual([]);
  });

  it('a password change revokes every key of the church by default, and keeps them when asked', async () => {
    const c = await registerChurch(app.url, 'Rotating Church');
    const first = await newKey(c.client, 'Old script');
    expect((await withKey(first.token).get('/api/contacts')).status).toBe(200);
    const changed = await c.client.post('/api/account/password', {
      currentPassword: c.password,
      newPassword: 'rotated-secret-1',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ ok: true, revokedApiKeys: 1 });
    expect((await withKey(first.token).get('/api/contacts')).status).toBe(401);
    expect((await c.client.get('/api/api-keys')).body).toEqual([]);

    const second = await newKey(c.client, 'Kept script');
    const kept = await c.client.post('/api/account/password', {
      currentPassword: 'rotated-secret-1',
      newPassword: 'rotated-secret-2',
      revokeApiKeys: false,
    });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ ok: true, revokedApiKeys: 0 });
    expect((await withKey(second.token).get('/api/contacts')).status).toBe(200);
    // Another church's keys are untouched by this church's change.
    const hers = await newKey(other.client, 'Hope script');
    await c.client.post('/api/account/password', { currentPassword: 'rotated-secret-2', newPassword: 'rotated-3' });
    expect((await withKey(second.token).get('/api/contacts')).status).toBe(401);
    expect((await withKey(hers.token).get('/api/contacts')).status).toBe(200);
  });

  it('read and write unless created read-only; the list shows the scope; a key made before scopes can write', async () => {
    expect((await newKey(church.client, 'Default')).scope).toBe('write');
    const reader = await newKey(church.client, 'Reporting', 'read');
    expect(reader.scope).toBe('read');
    const list = (await church.client.get('/api/api-keys')).body as { id: number; scope: string }[];
    expect(list.find((k) => k.id === reader.id)!.scope).toBe('read');
    const bad = await church.client.post('/api/api-keys', { name: 'X', scope: 'admin' });
    expect(bad.status).toBe(400);
    expect(bad.body.issues).toContainEqual({ path: 'scope', message: 'Scope must be read or write' });
    // Migration 0056: a row written without a scope (as every key before it) reads and writes.
    const [old] = await app.db
      .insertInto('apiKeys')
      .values({ userId: church.user.id, name: 'Old', tokenHash: 'f'.repeat(64), tokenPrefix: 'lsk_old' })
      .returning('scope')
      .execute();
    expect(old!.scope).toBe('write');
  });

  it('a read key reads (REST GET, tRPC queries) and is refused every write with 403, nothing written', async () => {
    const key = withKey((await newKey(church.client, 'Reporting', 'read')).token);
    const refused = { message: 'This API key can only read' };
    expect((await key.get('/api/contacts')).status).toBe(200);
    expect((await key.get('/api/events')).status).toBe(200);
    expect((await key.get('/trpc/auth.me')).status).toBe(200);
    const contact = { firstName: 'Rita', lastName: 'Reader', email: 'rita@example.org', phone: '412 345 679' };
    const post = await key.post('/api/contacts', contact);
    expect(post.status).toBe(403);
    expect(post.body).toMatchObject(refused);
    const ada = (await church.client.post('/api/contacts', { ...contact, firstName: 'Ada' })).body;
    expect((await key.patch(`/api/contacts/${ada.id}`, { firstName: 'X' })).status).toBe(403);
    expect((await key.delete(`/api/contacts/${ada.id}`)).status).toBe(403);
    // A POST that only counts is still a POST: the scope follows the HTTP method.
    expect((await key.post('/api/email-campaigns/recipient-count', { listIds: [1] })).status).toBe(403);
    const trpc = await key.post('/trpc/contacts.create', contact);
    expect(trpc.status).toBe(403);
    expect(trpc.body.error.message).toBe('This API key can only read');
    const upload = await fetch(`${app.url}/api/uploads`, {
      method: 'POST',
      headers: { authorization: key.headers.authorization!, 'content-type': 'multipart/form-data; boundary=x' },
      body: '--x--\r\n',
    });
    expect(upload.status).toBe(403);
    expect(await upload.json()).toMatchObject(refused);
    const names = (await church.client.get('/api/contacts')).body.map((c: { firstName: string }) => c.firstName);
    expect(names).not.toContain('Rita');
    expect((await church.client.get(`/api/contacts/${ada.id}`)).body.firstName).toBe('Ada');
  });

  it("a key's writes are its own in the events log (actor api_key with the key's id)", async () => {
    const key = await newKey(church.client, 'CRM sync', 'write');
    const made = await withKey(key.token).post('/api/contacts', {
      firstName: 'Kay',
      lastName: 'Key',
      email: 'kay@example.org',
      phone: '412 345 670',
    });
    expect(made.status).toBe(201);
    const events = (await church.client.get(`/api/contacts/${made.body.id}/events`)).body.events;
    expect(events).toMatchObject([
      { type: 'contact.created', actor: { kind: 'api_key', id: key.id }, data: { via: 'api' } },
    ]);
  });

  it('the name is required', async () => {
    const res = await church.client.post('/api/api-keys', { name: '' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Name is required');
  });

  it('/api/openapi.json documents the bearer scheme on the rows a key may call', async () => {
    const doc = (await new HttpClient(app.url).get('/api/openapi.json')).body;
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/contacts'].get.security).toEqual([{ sessionCookie: [] }, { apiKey: [] }]);
    expect(doc.paths['/api/admin/users'].get.security).toEqual([{ sessionCookie: [] }]);
    expect(doc.paths['/api/api-keys'].post.security).toEqual([{ sessionCookie: [] }]);
    expect(doc.paths['/api/register'].post.security).toEqual([]);
  });
});
