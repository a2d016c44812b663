import { describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createServer, SESSION_COOKIE } from '../../src/server.js';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';

const app = await startTestApp();

function noSecrets(body: unknown) {
  const text = JSON.stringify(body).toLowerCase();
  expect(text).not.toContain('password');
  expect(text).not.toContain('$argon2');
}

describe('POST /api/register', () => {
  it('makes the first account on an empty database the admin, and every later one a church', async () => {
    const first = await registerChurch(app.url, 'Platform Team');
    expect(first.user.role).toBe('admin');

    const client = new HttpClient(app.url);
    const res = await client.post('/api/register', {
      username: 'sneaky',
      password: 'secret12',
      churchName: 'Sneaky Chapel',
      email: 'sneaky@example.org',
      role: 'admin',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      username: 'sneaky',
      churchName: 'Sneaky Chapel',
      email: 'sneaky@example.org',
      role: 'church',
    });
    expect(res.body.id).toBeTypeOf('number');
    noSecrets(res.body);
    // Registration signs in.
    const me = await client.get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body.username).toBe('sneaky');
  });

  it('stores an Argon2id hash with at least 19 MiB, 2 passes and 1 lane, never the password', async () => {
    // The tests hash at a lower cost (services/auth/password.ts); this one asks for the real one.
    process.env.PASSWORD_HASHING = 'owasp';
    onTestFinished(() => void delete process.env.PASSWORD_HASHING);
    const { user, password } = await registerChurch(app.url);
    const row = await app.db
      .selectFrom('users')
      .select('passwordHash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.passwordHash).not.toContain(password);
    const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(row.passwordHash);
    expect(m).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThanOrEqual(19456);
    expect(Number(m![2])).toBeGreaterThanOrEqual(2);
    expect(Number(m![3])).toBe(1);
  });

  it.each([
    [{ password: 'secret12', churchName: 'A', email: 'a@b.org' }, 'username', 'Username is required'],
    [{ username: '  ', password: 'secret12', churchName: 'A', email: 'a@b.org' }, 'username', 'Username is required'],
    [{ username: 'abc', churchName: 'A', email: 'a@b.org' }, 'password', 'Password is required'],
    [
      { username: 'abc', password: '123', churchName: 'A', email: 'a@b.org' },
      'password',
      'Password must be at least 8 characters',
    ],
    [{ username: 'abc', password: 'secret12', email: 'a@b.org' }, 'churchName', 'Church name is required'],
    [
      { username: 'abc', password: 'secret12', churchName: 'A', email: 'not-an-email' },
      'email',
      'Please enter a valid email address',
    ],
    [
      { username: 'abc', password: 'secret12', churchName: 'A', email: 'a@b.org', role: 'superuser' },
      'role',
      undefined,
    ],
  ])('rejects %j with 400 naming %s', async (payload, field, message) => {
    const res = await new HttpClient(app.url).post('/api/register', payload);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_REQUEST');
    expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(field);
    if (message) expect(res.body.message).toBe(message);
  });

  it('answers 409 for a username or email that is taken (case-insensitively)', async () => {
    const { user } = await registerChurch(app.url);
    const dupUser = await new HttpClient(app.url).post('/api/register', {
      username: user.username.toUpperCase(),
      password: 'secret12',
      churchName: 'X',
      email: 'other-unique@example.org',
    });
    expect(dupUser.status).toBe(409);
    expect(dupUser.body).toEqual({ message: 'Username already exists', code: 'CONFLICT' });

    const dupEmail = await new HttpClient(app.url).post('/api/register', {
      username: 'someone-new',
      password: 'secret12',
      churchName: 'X',
      email: user.email.toUpperCase(),
    });
    expect(dupEmail.status).toBe(409);
    expect(dupEmail.body.message).toBe('An account with this email already exists');
  });

  it('lets only one of two simultaneous registrations of the same name through', async () => {
    const payload = { username: 'racer', password: 'secret12', churchName: 'Race', email: 'race@example.org' };
    const results = await Promise.all([
      new HttpClient(app.url).post('/api/register', payload),
      new HttpClient(app.url).post('/api/register', payload),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
  });
});

describe('POST /api/login', () => {
  it('signs in, returns the user without secrets, and sets an HttpOnly SameSite=Lax cookie', async () => {
    const { user, password } = await registerChurch(app.url);
    const client = new HttpClient(app.url);
    const res = await client.post('/api/login', { username: user.username, password });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: user.id,
      username: user.username,
      churchName: user.churchName,
      email: user.email,
      role: 'church',
    });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    const me = await client.get('/api/user');
    expect(me.body.id).toBe(user.id);
    noSecrets(me.body);
  });

  it('accepts the username in any case', async () => {
    const { user, password } = await registerChurch(app.url);
    const res = await new HttpClient(app.url).post('/api/login', { username: user.username.toUpperCase(), password });
    expect(res.status).toBe(200);
  });

  it('answers 401 for a wrong password or an unknown user, with the same message', async () => {
    const { user } = await registerChurch(app.url);
    const wrong = await new HttpClient(app.url).post('/api/login', { username: user.username, password: 'not-it' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid username or password', code: 'UNAUTHORIZED' });
    const unknown = await new HttpClient(app.url).post('/api/login', { username: 'nobody-here', password: 'whatever' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toBe(wrong.body.message);
  });

  it('answers 400 naming the missing field', async () => {
    const noUser = await new HttpClient(app.url).post('/api/login', { password: 'x' });
    expect(noUser.status).toBe(400);
    expect(noUser.body.message).toBe('Username is required');
    expect(noUser.body.issues).toEqual([{ path: 'username', message: 'Username is required' }]);
    const noPass = await new HttpClient(app.url).post('/api/login', { username: 'x', password: '' });
    expect(noPass.status).toBe(400);
    expect(noPass.body.message).toBe('Password is required');
  });

  it('issues a new session id at login, and the old one stops working', async () => {
    const { user, password } = await registerChurch(app.url);
    const client = new HttpClient(app.url);
    await client.post('/api/login', { username: user.username, password });
    const first = client.cookies.get(SESSION_COOKIE)!;
    await client.post('/api/login', { username: user.username, password });
    const second = client.cookies.get(SESSION_COOKIE)!;
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);
    const old = new HttpClient(app.url);
    old.cookies.set(SESSION_COOKIE, first);
    expect((await old.get('/api/user')).status).toBe(401);
  });

  it('sets the Secure flag on the cookie in production', async () => {
    const tdbUrl = app.db; // same database, a second instance configured for production
    const prod = await createServer(
      {
        ...loadConfig({ NODE_ENV: 'production' }),
        port: 0,
        host: '127.0.0.1',
        logLevel: 'silent',
        sessionSecret: 'x'.repeat(40),
      },
      { ...app.deps, db: tdbUrl },
    );
    const url = await prod.start();
    try {
      const { user, password } = await registerChurch(app.url);
      const res = await new HttpClient(url).post('/api/login', { username: user.username, password });
      expect(res.status).toBe(200);
      expect(res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))).toMatch(/;\s*Secure/i);
    } finally {
      await prod.stop();
    }
  });
});

describe('GET /api/user and POST /api/logout', () => {
  it('answers 401 when not signed in', async () => {
    const res = await new HttpClient(app.url).get('/api/user');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Not authenticated', code: 'UNAUTHORIZED' });
  });

  it('destroys the session on the server: the old cookie no longer works', async () => {
    const { client } = await registerChurch(app.url);
    const cookie = client.cookies.get(SESSION_COOKIE)!;
    const sid = decodeURIComponent(cookie).split('.')[0]!;
    expect(await app.db.selectFrom('sessions').select('sid').where('sid', '=', sid).executeTakeFirst()).toBeDefined();
    const out = await client.post('/api/logout');
    expect(out.status).toBe(200);
    expect(out.body.ok).toBe(true);
    const replay = new HttpClient(app.url);
    replay.cookies.set(SESSION_COOKIE, cookie);
    expect((await replay.get('/api/user')).status).toBe(401);
    expect(await app.db.selectFrom('sessions').select('sid').where('sid', '=', sid).executeTakeFirst()).toBeUndefined();
  });

  it('logging out without a session is harmless', async () => {
    const res = await new HttpClient(app.url).post('/api/logout');
    expect(res.status).toBe(200);
  });

  it('shares sessions between server instances on the same database', async () => {
    const { client, user } = await registerChurch(app.url);
    const secret = await app.db
      .selectFrom('appSettings')
      .select('value')
      .where('key', '=', 'session_secret')
      .executeTakeFirstOrThrow();
    expect(secret.value.length).toBeGreaterThanOrEqual(32);
    const other = await createServer(
      { ...loadConfig({ NODE_ENV: 'test' }), port: 0, host: '127.0.0.1', logLevel: 'silent' },
      app.deps,
    );
    const url = await other.start();
    try {
      const second = new HttpClient(url);
      second.cookies = new Map(client.cookies);
      const me = await second.get('/api/user');
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(user.id);
    } finally {
      await other.stop();
    }
  });
});
