import { describe, expect, it } from 'vitest';
import { HttpClient } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';

// Usernames normalized (NFKC, case-insensitive), look-alikes refused; passwords 8..256.
const app = await sharedTestApp();

let n = 0;
const register = (username: string, password = 'correct-horse') =>
  new HttpClient(app.url).post('/api/register', {
    username,
    password,
    churchName: 'Grace Church',
    email: `office${++n}@example.org`,
  });

describe('usernames', () => {
  it('refuses a look-alike of an existing name (Cyrillic о beside root), and the same name in other case', async () => {
    expect((await register('root')).status).toBe(201);
    for (const lookalike of ['rооt', 'rοοt', 'r0ot', 'ro\u200bot']) {
      const res = await register(lookalike);
      expect(res.status, lookalike).toBe(409);
      expect(res.body.message).toBe('This username looks too much like an existing one: please choose another');
      expect(res.body.issues).toEqual([{ path: 'username', message: res.body.message }]);
    }
    const upper = await register('ROOT');
    expect(upper.status).toBe(409);
    expect(upper.body.message).toBe('Username already exists');
    // A full-width form is the same name after NFKC.
    expect((await register('ｒｏｏｔ')).body.message).toBe('Username already exists');
  });

  it('stores the name NFKC-normalized, so its full-width form signs in too', async () => {
    const res = await register('ｐａｓｔｏｒ');
    expect(res.status).toBe(201);
    expect(res.body.username).toBe('pastor');
    const login = await new HttpClient(app.url).post('/api/login', { username: 'Pastor', password: 'correct-horse' });
    expect(login.status).toBe(200);
  });

  it('a different name is fine', async () => {
    expect((await register('boot')).status).toBe(201);
  });
});

describe('password length', () => {
  it('needs at least 8 characters and refuses more than 256', async () => {
    expect((await register('shorty', '12345')).body.message).toBe('Password must be at least 8 characters');
    expect((await register('shorty', '1234567')).body.message).toBe('Password must be at least 8 characters');
    expect((await register('shorty', '12345678')).status).toBe(201);
    const long = await register('longpass', 'x'.repeat(257));
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('Password must be at most 256 characters');
    expect((await register('longpass', 'x'.repeat(256))).status).toBe(201);
  });
});
