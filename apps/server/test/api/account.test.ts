import { describe, expect, it } from 'vitest';
import { HttpClient, registerChurch } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';

const app = await sharedTestApp();

async function signIn(username: string, password: string) {
  const client = new HttpClient(app.url);
  const res = await client.post('/api/login', { username, password });
  expect(res.status).toBe(200);
  return client;
}

describe('PATCH /api/account', () => {
  it('changes the church name alone (no password needed) and keeps the email', async () => {
    const { client, user } = await registerChurch(app.url, 'Grace Church');
    const res = await client.patch('/api/account', { churchName: 'Grace Community Church' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, churchName: 'Grace Community Church', email: user.email });
    expect((await client.get('/api/user')).body.churchName).toBe('Grace Community Church');
  });

  it('a new email needs the current password: missing or wrong is a 400 naming currentPassword', async () => {
    const { client, user, password } = await registerChurch(app.url);
    const missing = await client.patch('/api/account', { email: 'new-office@example.org' });
    expect(missing.status).toBe(400);
    expect(missing.body.issues).toEqual([
      { path: 'currentPassword', message: 'Enter your current password to change your email' },
    ]);
    const wrong = await client.patch('/api/account', { email: 'new-office@example.org', currentPassword: 'nope-nope' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ message: 'Current password is incorrect', code: 'BAD_REQUEST' });
    expect(wrong.body.issues).toEqual([{ path: 'currentPassword', message: 'Current password is incorrect' }]);
    expect((await client.get('/api/user')).body.email).toBe(user.email);

    const ok = await client.patch('/api/account', { email: 'new-office@example.org', currentPassword: password });
    expect(ok.status).toBe(200);
    expect(ok.body.email).toBe('new-office@example.org');
    // The same email in other letters is no change: no password needed.
    expect((await client.patch('/api/account', { email: 'NEW-office@example.org' })).status).toBe(200);
  });

  it("refuses another account's email with 409 and bad input with 400", async () => {
    const other = await registerChurch(app.url);
    const { client, password } = await registerChurch(app.url);
    const taken = await client.patch('/api/account', {
      email: other.user.email.toUpperCase(),
      currentPassword: password,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('An account with this email already exists');
    const bad = await client.patch('/api/account', { email: 'not-an-email', churchName: ' ' });
    expect(bad.status).toBe(400);
    expect(bad.body.issues.map((i: { path: string }) => i.path).sort()).toEqual(['churchName', 'email']);
  });

  it('answers 401 to a visitor', async () => {
    const visitor = new HttpClient(app.url);
    expect((await visitor.patch('/api/account', { churchName: 'X' })).status).toBe(401);
    expect(
      (await visitor.post('/api/account/password', { currentPassword: 'x', newPassword: 'secret12' })).status,
    ).toBe(401);
  });
});

describe('POST /api/account/password', () => {
  it('a wrong current password is a 400 naming currentPassword, and nothing changes', async () => {
    const { client, user, password } = await registerChurch(app.url);
    const res = await client.post('/api/account/password', {
      currentPassword: 'wrong-one',
      newPassword: 'new-secret-1',
    });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ path: 'currentPassword', message: 'Current password is incorrect' }]);
    await signIn(user.username, password);
    const short = await client.post('/api/account/password', { currentPassword: password, newPassword: '123' });
    expect(short.status).toBe(400);
    expect(short.body.issues[0]).toEqual({ path: 'newPassword', message: 'Password must be at least 8 characters' });
  });

  it("signs out the account's other sessions and keeps this one; the new password signs in", async () => {
    const { client, user, password } = await registerChurch(app.url);
    const laptop = await signIn(user.username, password);
    const phone = await signIn(user.username, password);
    const stranger = await registerChurch(app.url);
    expect((await laptop.get('/api/user')).status).toBe(200);

    const res = await client.post('/api/account/password', { currentPassword: password, newPassword: 'new-secret-1' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, signedOutSessions: 2, revokedApiKeys: 0 });

    expect((await client.get('/api/user')).status).toBe(200);
    expect((await laptop.get('/api/user')).status).toBe(401);
    expect((await phone.get('/api/user')).status).toBe(401);
    // Another church's session is untouched.
    expect((await stranger.client.get('/api/user')).status).toBe(200);

    expect((await new HttpClient(app.url).post('/api/login', { username: user.username, password })).status).toBe(401);
    await signIn(user.username, 'new-secret-1');
  });
});
