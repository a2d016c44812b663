import { describe, expect, it } from 'vitest';
import { addContact, HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { giveHandle, linkInOutbox, Member } from '../helpers/portal.js';

// The local outbox (no SMTP or SMS provider) holds live links — portal sign-in,
// email verification, confirm, manage, unsubscribe, serve — and SMS sign-in codes. An API key,
// read-only or not, never reads it: only staff signed in with the session see their outbox.
const app = await startTestApp();
const grace = await registerChurch(app.url, 'Grace Church');
const handle = await giveHandle(app.db, grace.user.id, 'grace-outbox');
const LINK = /http:\/\/\S+\/c\/grace-outbox\/me\/link\/[\w-]+/;

async function newKey(scope: 'read' | 'write') {
  const res = await grace.client.post('/api/api-keys', { name: `Script (${scope})`, scope });
  expect(res.status).toBe(201);
  return new HttpClient(app.url, { authorization: `Bearer ${(res.body as { token: string }).token}` });
}

describe('the outbox and API keys', () => {
  it("refuses a key the outbox holding a member's live sign-in link; staff signed in still see it", async () => {
    const member = await addContact(grace.client, { email: 'ruth@example.org' });
    expect((await new Member(app.url).post(`/c/${handle}/me/sign-in`, { address: member.email! })).status).toBe(200);
    const link = await linkInOutbox(app.db, member.email!, LINK);
    expect((await grace.client.post('/api/account/verification-email', {})).status).toBe(200);

    for (const scope of ['read', 'write'] as const) {
      const key = await newKey(scope);
      for (const channel of ['email', 'sms']) {
        const res = await key.get(`/api/outbox?channel=${channel}`);
        expect(res.status, `${scope} key, ${channel}`).toBe(403);
        expect(res.body).toMatchObject({ message: 'Not available with an API key', code: 'FORBIDDEN' });
        expect(res.text).not.toContain('/me/link/');
      }
      // The same over tRPC.
      const trpc = await key.get(`/trpc/outbox.list?input=${encodeURIComponent(JSON.stringify({}))}`);
      expect(trpc.status).toBe(403);
      expect(trpc.text).not.toContain('/me/link/');
      // The key still reads what it may.
      expect((await key.get('/api/contacts')).status).toBe(200);
    }

    const staff = await grace.client.get('/api/outbox?channel=email');
    expect(staff.status).toBe(200);
    const texts = (staff.body as { text: string | null }[]).map((m) => m.text ?? '').join('\n');
    expect(texts).toContain(link);
    expect(texts).toContain('/verify-email/');
  });

  it("says so in the OpenAPI document (the row is the session's only)", async () => {
    const doc = (await grace.client.get('/api/openapi.json')).body as {
      paths: Record<string, { get?: { security?: Record<string, unknown>[] } }>;
    };
    const security = doc.paths['/api/outbox']!.get!.security ?? [];
    expect(security.some((s) => 'apiKey' in s)).toBe(false);
    expect(security.some((s) => 'sessionCookie' in s)).toBe(true);
  });
});
