import { describe, expect, it } from 'vitest';
import { issueSetupToken } from '@lampstand/api/server';
import { loadConfig } from '../../src/config.js';
import { HttpClient, startTestApp } from '../helpers/test-app.js';

// With DATABASE_URL, registering first does not make an administrator: the one-time setup token
// printed at first start does (or pnpm admin:create).
const app = await startTestApp({ firstAccountIsAdmin: false });

let n = 0;
const register = (extra: Record<string, unknown> = {}) => {
  n++;
  return new HttpClient(app.url).post('/api/register', {
    username: `first_${n}`,
    password: 'correct-horse',
    churchName: `Church ${n}`,
    email: `first${n}@example.org`,
    ...extra,
  });
};

describe('the first administrator', () => {
  it('is only automatic on the embedded database', () => {
    expect(loadConfig({}).firstAccountIsAdmin).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://x/y' }).firstAccountIsAdmin).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://x/y', FIRST_ACCOUNT_ADMIN: 'true' }).firstAccountIsAdmin).toBe(true);
  });

  it('the first registration is a church; a wrong token changes nothing; the setup token makes the admin once', async () => {
    expect(app.server.setupToken).toMatch(/^[\w-]{20,}$/);
    expect((await register()).body.role).toBe('church');
    expect((await register({ setupToken: 'not-the-token' })).body.role).toBe('church');
    expect((await register({ setupToken: app.server.setupToken })).body.role).toBe('admin');
    expect((await register({ setupToken: app.server.setupToken })).body.role).toBe('church');
    // With an administrator, a start issues no token.
    expect(await issueSetupToken(app.db)).toBeNull();
  });
});

describe('setup tokens of several instances', () => {
  it("each instance's token works until one makes the administrator; then none does", async () => {
    const other = await startTestApp({ firstAccountIsAdmin: false });
    // Two instances starting on one database (the second start is simulated on the same one).
    const first = other.server.setupToken!;
    const second = (await issueSetupToken(other.db))!;
    expect(second).not.toBe(first);
    const reg = (setupToken: string, i: number) =>
      new HttpClient(other.url).post('/api/register', {
        username: `multi_${i}`,
        password: 'correct-horse',
        churchName: `Multi ${i}`,
        email: `multi${i}@example.org`,
        setupToken,
      });
    expect((await reg(first, 1)).body.role).toBe('admin');
    expect((await reg(second, 2)).body.role).toBe('church');
    expect((await reg(first, 3)).body.role).toBe('church');
  });
});
