import { describe, expect, it } from 'vitest';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';

// Own file (own database): the per-IP limit counts every failure from 127.0.0.1.
const app = await startTestApp({ trustProxy: true });

function from(ip: string) {
  return new HttpClient(app.url, { 'x-forwarded-for': ip });
}

describe('login throttling', () => {
  it('refuses the 11th attempt for one username within 15 minutes with 429, even with the right password', async () => {
    const { user, password } = await registerChurch(app.url);
    for (let i = 1; i <= 10; i++) {
      const res = await from(`10.0.0.${i}`).post('/api/login', { username: user.username, password: 'wrong' });
      expect(res.status, `attempt ${i}`).toBe(401);
    }
    const eleventh = await from('10.0.1.1').post('/api/login', { username: user.username, password });
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toEqual({
      message: 'Too many failed login attempts. Please try again in 15 minutes.',
      code: 'TOO_MANY_REQUESTS',
    });
  });

  it('refuses the 11th failure from one IP across usernames', async () => {
    const { user, password } = await registerChurch(app.url);
    for (let i = 1; i <= 10; i++) {
      const res = await from('192.0.2.50').post('/api/login', { username: `ghost-${i}`, password: 'wrong' });
      expect(res.status).toBe(401);
    }
    expect((await from('192.0.2.50').post('/api/login', { username: user.username, password })).status).toBe(429);
    // Another address is not affected.
    expect((await from('192.0.2.51').post('/api/login', { username: user.username, password })).status).toBe(200);
  });

  it('forgets failures older than 15 minutes', async () => {
    const { user, password } = await registerChurch(app.url);
    for (let i = 1; i <= 10; i++) {
      await from(`10.9.0.${i}`).post('/api/login', { username: user.username, password: 'wrong' });
    }
    expect((await from('10.9.1.1').post('/api/login', { username: user.username, password })).status).toBe(429);
    await app.db
      .updateTable('loginFailures')
      .set({ at: new Date(Date.now() - 16 * 60 * 1000) })
      .where('username', '=', user.username.toLowerCase())
      .execute();
    expect((await from('10.9.1.1').post('/api/login', { username: user.username, password })).status).toBe(200);
  });

  it('a successful login clears the count for that username', async () => {
    const { user, password } = await registerChurch(app.url);
    for (let i = 1; i <= 9; i++)
      await from(`10.8.0.${i}`).post('/api/login', { username: user.username, password: 'wrong' });
    expect((await from('10.8.1.1').post('/api/login', { username: user.username, password })).status).toBe(200);
    for (let i = 1; i <= 9; i++)
      await from(`10.8.2.${i}`).post('/api/login', { username: user.username, password: 'wrong' });
    expect((await from('10.8.3.1').post('/api/login', { username: user.username, password })).status).toBe(200);
  });
});
