import { describe, expect, it } from 'vitest';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';

// Own file (own database). Throttling per username + address (10 in 15 minutes) and per address
// (100 an hour, growing delays after 20), counted before the password check in one locked step.
const app = await startTestApp({ trustProxy: 1 });

function from(ip: string) {
  return new HttpClient(app.url, { 'x-forwarded-for': ip });
}
const TOO_MANY = {
  message: 'Too many failed login attempts. Please try again in 15 minutes.',
  code: 'TOO_MANY_REQUESTS',
};

describe('login throttling under concurrency', () => {
  it('40 concurrent wrong passwords for one user from one address: exactly 10 are checked', async () => {
    const { user } = await registerChurch(app.url);
    const results = await Promise.all(
      Array.from({ length: 40 }, () =>
        from('198.51.100.1').post('/api/login', { username: user.username, password: 'wrong' }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
  });

  it('each call of a tRPC batch counts as an attempt', async () => {
    const { user } = await registerChurch(app.url);
    for (let i = 1; i <= 3; i++)
      await from('198.51.100.2').post('/api/login', { username: user.username, password: 'wrong' });
    const calls = 9;
    const input = Object.fromEntries(
      Array.from({ length: calls }, (_, i) => [String(i), { username: user.username, password: 'wrong' }]),
    );
    const path = `/trpc/${Array.from({ length: calls }, () => 'auth.login').join(',')}?batch=1`;
    const res = await from('198.51.100.2').post(path, input);
    const codes = (res.body as { error?: { data: { httpStatus: number } } }[]).map((r) => r.error?.data.httpStatus);
    expect(codes.filter((c) => c === 401)).toHaveLength(7);
    expect(codes.filter((c) => c === 429)).toHaveLength(2);
  });
});

describe('no lockout of someone else', () => {
  it('10 failures from 10 other addresses do not block the right password from yours', async () => {
    const { user, password } = await registerChurch(app.url);
    for (let i = 1; i <= 10; i++) {
      const res = await from(`10.0.0.${i}`).post('/api/login', { username: user.username, password: 'wrong' });
      expect(res.status, `attempt ${i}`).toBe(401);
    }
    expect((await from('10.0.1.1').post('/api/login', { username: user.username, password })).status).toBe(200);
  });

  it('the 11th attempt for one username from one address is refused, even with the right password', async () => {
    const { user, password } = await registerChurch(app.url);
    for (let i = 1; i <= 10; i++) {
      expect((await from('10.1.0.1').post('/api/login', { username: user.username, password: 'wrong' })).status).toBe(
        401,
      );
    }
    const eleventh = await from('10.1.0.1').post('/api/login', { username: user.username, password });
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toEqual(TOO_MANY);
  });

  it('a dozen failures for other usernames from one address do not block a correct password there', async () => {
    const { user, password } = await registerChurch(app.url);
    for (let i = 1; i <= 12; i++) {
      expect((await from('192.0.2.50').post('/api/login', { username: `ghost-${i}`, password: 'wrong' })).status).toBe(
        401,
      );
    }
    expect((await from('192.0.2.50').post('/api/login', { username: user.username, password })).status).toBe(200);
  });

  it('an address with many failures waits growing delays, then may try again', async () => {
    const { user, password } = await registerChurch(app.url);
    for (let i = 1; i <= 21; i++) {
      expect((await from('192.0.2.77').post('/api/login', { username: `nobody-${i}`, password: 'x' })).status).toBe(
        401,
      );
    }
    expect((await from('192.0.2.77').post('/api/login', { username: user.username, password })).status).toBe(429);
    // Another address is not affected.
    expect((await from('192.0.2.78').post('/api/login', { username: user.username, password })).status).toBe(200);
    await app.db
      .updateTable('rateLimitBuckets')
      .set({ nextAllowedAt: new Date(Date.now() - 1000) })
      .where('key', '=', 'login-address:192.0.2.77')
      .execute();
    expect((await from('192.0.2.77').post('/api/login', { username: user.username, password })).status).toBe(200);
  });
});

describe('windows', () => {
  it('forgets attempts older than 15 minutes', async () => {
    const { user, password } = await registerChurch(app.url);
    for (let i = 1; i <= 10; i++)
      await from('10.9.0.1').post('/api/login', { username: user.username, password: 'wrong' });
    expect((await from('10.9.0.1').post('/api/login', { username: user.username, password })).status).toBe(429);
    await app.db
      .updateTable('rateLimitBuckets')
      .set({ windowStart: new Date(Date.now() - 16 * 60 * 1000) })
      .where('key', '=', `login:${user.username.toLowerCase()}|10.9.0.1`)
      .execute();
    expect((await from('10.9.0.1').post('/api/login', { username: user.username, password })).status).toBe(200);
  });

  it('a successful login clears the count for that username and address', async () => {
    const { user, password } = await registerChurch(app.url);
    for (let i = 1; i <= 9; i++)
      await from('10.8.0.1').post('/api/login', { username: user.username, password: 'wrong' });
    expect((await from('10.8.0.1').post('/api/login', { username: user.username, password })).status).toBe(200);
    for (let i = 1; i <= 9; i++)
      await from('10.8.0.1').post('/api/login', { username: user.username, password: 'wrong' });
    expect((await from('10.8.0.1').post('/api/login', { username: user.username, password })).status).toBe(200);
  });
});

describe('registration', () => {
  it('is limited per address', async () => {
    const limited = await startTestApp({ trustProxy: 1, registrationsPerHour: 3 });
    const register = (ip: string, n: number) =>
      new HttpClient(limited.url, { 'x-forwarded-for': ip }).post('/api/register', {
        username: `reg_${ip.replace(/\./g, '_')}_${n}`,
        password: 'correct-horse',
        churchName: `Church ${n}`,
        email: `reg${n}@example.org`,
      });
    for (let n = 1; n <= 3; n++) expect((await register('203.0.113.9', n)).status).toBe(201);
    const fourth = await register('203.0.113.9', 4);
    expect(fourth.status).toBe(429);
    expect(fourth.body.code).toBe('TOO_MANY_REQUESTS');
    expect((await register('203.0.113.10', 5)).status).toBe(201);
  });
});
