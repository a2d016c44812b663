import { describe, expect, it } from 'vitest';
import { addContact, type HttpClient, registerChurch } from '../helpers/test-app.js';
import { sharedAdmin, sharedTestApp } from '../helpers/shared-app.js';

// CSRF: a cookie-authenticated state change on /api or /trpc must be JSON with an allowed Origin
// (or Sec-Fetch-Site: same-origin). Scripts without an Origin, public pages and webhooks still work.
const app = await sharedTestApp();
const admin = await sharedAdmin();
const church = await registerChurch(app.url, 'Grace Church');
const EVIL = 'http://evil.localhost:9999';

const list = (await church.client.post('/api/contact-lists', { name: 'Choir', type: 'email' })).body;
const contact = await addContact(church.client, {
  firstName: 'Ann',
  lastName: 'Lee',
  email: 'ann@example.org',
  phone: '0400000000',
});
const campaign = (
  await church.client.post('/api/email-campaigns', {
    name: 'Hello',
    subject: 'Hi',
    content: '<p>Hi</p>',
    listIds: [list.id],
  })
).body;

/** A request as a browser page would send it, with the church's cookie. */
async function forged(
  client: HttpClient,
  method: string,
  path: string,
  init: { body?: string | FormData; headers?: Record<string, string> } = {},
) {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(app.url + path, { method, body: init.body, headers: { cookie, ...init.headers } });
  return {
    status: res.status,
    body: (await res.json().catch(() => null)) as { code?: string; message?: string } | null,
  };
}

describe('attacks from a page on the same site', () => {
  it('an empty no-cors POST to send a campaign is refused and nothing is sent', async () => {
    const res = await forged(church.client, 'POST', `/api/email-campaigns/${campaign.id}/send`, {
      headers: { origin: EVIL, 'sec-fetch-site': 'same-site' },
    });
    expect(res.status).toBe(415);
    const after = await church.client.get(`/api/email-campaigns/${campaign.id}`);
    expect(after.body.status).toBe('draft');
  });

  it('a text/plain form adding a contact to a list is refused', async () => {
    const res = await forged(church.client, 'POST', `/api/contact-lists/${list.id}/contacts/${contact.id}`, {
      body: '{"x":1}',
      headers: { 'content-type': 'text/plain', origin: EVIL },
    });
    expect(res.status).toBe(415);
    const members = await church.client.get(`/api/contact-lists/${list.id}/contacts`);
    expect(JSON.stringify(members.body)).not.toContain('ann@example.org');
  });

  it('a multipart form to /trpc/auth.logout is refused and the session lives on', async () => {
    const form = new FormData();
    form.set('x', '1');
    const res = await forged(church.client, 'POST', '/trpc/auth.logout', { body: form, headers: { origin: EVIL } });
    expect(res.status).toBe(415);
    expect((await church.client.get('/api/user')).status).toBe(200);
  });

  it('an empty POST starting impersonation is refused', async () => {
    const res = await forged(admin.client, 'POST', `/api/admin/impersonate/${church.user.id}`, {
      headers: { origin: EVIL },
    });
    expect(res.status).toBe(415);
    expect((await admin.client.get('/api/user')).body.username).toBe(admin.user.username);
  });

  it('JSON from another origin is refused (403)', async () => {
    const res = await forged(church.client, 'POST', '/api/contact-lists', {
      body: JSON.stringify({ name: 'Forged' }),
      headers: { 'content-type': 'application/json', origin: EVIL },
    });
    expect(res.status).toBe(403);
    expect(res.body?.code).toBe('FORBIDDEN');
  });

  it('JSON without Origin but with Sec-Fetch-Site: same-site is refused', async () => {
    const res = await forged(church.client, 'POST', '/api/contact-lists', {
      body: JSON.stringify({ name: 'Forged' }),
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-site' },
    });
    expect(res.status).toBe(403);
  });
});

describe('what keeps working', () => {
  it('JSON from the app itself (same origin)', async () => {
    const res = await forged(church.client, 'POST', '/api/contact-lists', {
      body: JSON.stringify({ name: 'Same origin' }),
      headers: { 'content-type': 'application/json', origin: app.url, 'sec-fetch-site': 'same-origin' },
    });
    expect(res.status).toBe(201);
  });

  it('an integrator script with the cookie, JSON and no Origin', async () => {
    const res = await church.client.post('/api/contact-lists', { name: 'Script' });
    expect(res.status).toBe(201);
  });

  it('requests without the session cookie need no JSON check; a script logs in, another site does not', async () => {
    const login = (headers: Record<string, string>) =>
      fetch(`${app.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ username: church.user.username, password: church.password }),
      });
    expect((await login({})).status).toBe(200);
    expect((await login({ origin: EVIL })).status).toBe(403);
  });

  it('the Twilio webhook (form-encoded, marked publicNoCsrf) is not refused as CSRF even with a cookie', async () => {
    const res = await forged(church.client, 'POST', '/api/sms/status', {
      body: 'MessageSid=SM1&MessageStatus=delivered',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: EVIL },
    });
    expect(res.status).not.toBe(415);
    expect(res.body?.message).not.toBe('Cross-site request refused');
  });

  it('the unsubscribe page form outside /api is not checked', async () => {
    const res = await forged(church.client, 'POST', '/u/not-a-token', {
      body: 'confirm=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null' },
    });
    expect(res.status).not.toBe(415);
    expect(res.status).toBeLessThan(500);
  });

  it('GET is never checked', async () => {
    const res = await forged(church.client, 'GET', '/api/contact-lists', { headers: { origin: EVIL } });
    expect(res.status).toBe(200);
  });
});
