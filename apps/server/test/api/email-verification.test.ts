import { afterAll, describe, expect, it } from 'vitest';
import { sql } from '@lampstand/db';
import { registerChurch, startTestApp, type HttpClient } from '../helpers/test-app.js';
import { startSmtpSink } from '../helpers/smtp-sink.js';

// A church earns trust by verifying its account email through a link sent by the
// email engine (here the real SMTP adapter against an SMTP server on loopback); until then its
// campaigns reach at most 100 people a day; an administrator can lift or lower a church's limit.

const sink = await startSmtpSink();
afterAll(() => sink.close());
const PUBLIC_URL = 'http://lampstand.test';
const app = await startTestApp(
  { emailSmtpUrl: sink.url, emailFrom: 'Lampstand <news@lampstand.test>', publicUrl: PUBLIC_URL },
  { retryBaseSeconds: 1 },
);
const admin = await registerChurch(app.url, 'Platform');

/** The verification link of the latest message to `to`, on this test server. */
async function linkSentTo(to: string, nth = 1): Promise<string> {
  const start = Date.now();
  for (;;) {
    const mails = sink.messages.filter(
      (m) => m.envelopeTo.includes(to.toLowerCase()) && m.parsed.subject === 'Verify your email address',
    );
    if (mails.length >= nth) {
      const text = mails[nth - 1]!.parsed.text ?? '';
      const link = /http:\/\/lampstand\.test\/verify-email\/[\w-]+/.exec(text)?.[0];
      if (!link) throw new Error(`no link in: ${text}`);
      return link.replace(PUBLIC_URL, app.url);
    }
    if (Date.now() - start > 10_000) throw new Error(`no verification email to ${to}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function usePage(link: string, method: 'GET' | 'POST') {
  const res = await fetch(link, {
    method,
    headers: method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
    body: method === 'POST' ? '' : undefined,
  });
  return { status: res.status, html: await res.text() };
}

/** `count` subscribed contacts on a new list of the church, seeded in SQL. */
async function listOf(church: Awaited<ReturnType<typeof registerChurch>>, count: number) {
  const list = (await church.client.post('/api/contact-lists', { name: `List ${Math.random()}`, type: 'both' })).body;
  await sql`
    with c as (
      insert into contacts (user_id, first_name, last_name, email, phone, phone_e164, email_consent, sms_consent)
      select ${church.user.id}, 'P' || g, 'L', 'p' || g || '-' || ${list.id} || '@example.org', '0412345678', '+61412345678', 'subscribed', 'subscribed'
      from generate_series(1, ${count}) g
      returning id
    )
    insert into contacts_in_lists (user_id, contact_id, list_id) select ${church.user.id}, c.id, ${list.id} from c`.execute(
    app.db,
  );
  return list as { id: number };
}

async function emailCampaign(client: HttpClient, listId: number, o: Record<string, unknown> = {}) {
  const res = await client.post('/api/email-campaigns', {
    name: 'Welcome',
    subject: 'Hello {{firstName}}',
    content: '<p>Hi {{firstName}}</p>',
    status: 'draft',
    listIds: [listId],
    ...o,
  });
  expect(res.status).toBe(201);
  return res.body as { id: number };
}

async function verify(church: Awaited<ReturnType<typeof registerChurch>>) {
  const link = await linkSentTo(church.user.email);
  expect((await usePage(link, 'POST')).status).toBe(200);
}

describe('account email verification', () => {
  it('sends a link at registration that verifies the email once; a second use is refused', async () => {
    const church = await registerChurch(app.url, 'Grace Church');
    const before = await church.client.get('/api/account/status');
    expect(before.body).toMatchObject({
      email: church.user.email,
      emailVerified: false,
      limit: 100,
      source: 'unverified',
      usedLast24h: 0,
      remaining: 100,
      outbox: false,
      verificationEmail: null,
    });

    const link = await linkSentTo(church.user.email);
    const mail = sink.messages.find((m) => m.envelopeTo.includes(church.user.email.toLowerCase()))!;
    expect(mail.parsed.html).toContain(`href="${PUBLIC_URL}/verify-email/`);
    // Only the SHA-256 of the token is stored.
    const token = link.split('/').at(-1)!;
    const stored = await app.db.selectFrom('emailVerificationTokens').select('tokenHash').execute();
    expect(stored.some((t) => t.tokenHash === token)).toBe(false);
    expect(stored.every((t) => /^[0-9a-f]{64}$/.test(t.tokenHash))).toBe(true);

    // Opening the link (as a mail scanner would) verifies nothing: it asks.
    const shown = await usePage(link, 'GET');
    expect(shown.status).toBe(200);
    expect(shown.html).toContain('Verify my email');
    expect((await church.client.get('/api/account/status')).body.emailVerified).toBe(false);

    const used = await usePage(link, 'POST');
    expect(used.status).toBe(200);
    expect(used.html).toContain('Your email is verified');
    const after = (await church.client.get('/api/account/status')).body;
    expect(after).toMatchObject({ emailVerified: true, limit: null, source: 'none', remaining: null });
    expect(after.emailVerifiedAt).toEqual(expect.any(String));

    const again = await usePage(link, 'POST');
    expect(again.status).toBe(410);
    expect(again.html).toContain('This link has already been used');
    expect((await usePage(link, 'GET')).status).toBe(410);
  });

  it('refuses an expired link, a made-up one, and sends a new link on demand (at most 5 an hour)', async () => {
    const church = await registerChurch(app.url, 'Hope Chapel');
    const link = await linkSentTo(church.user.email);
    await app.db
      .updateTable('emailVerificationTokens')
      .set({ expiresAt: sql<Date>`now() - interval '1 second'` })
      .where('userId', '=', church.user.id)
      .execute();
    const expired = await usePage(link, 'POST');
    expect(expired.status).toBe(410);
    expect(expired.html).toContain('This link has expired');
    expect((await church.client.get('/api/account/status')).body.emailVerified).toBe(false);
    expect((await usePage(`${app.url}/verify-email/${'x'.repeat(43)}`, 'POST')).status).toBe(404);

    const sent = await church.client.post('/api/account/verification-email');
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ ok: true, to: church.user.email, outbox: false });
    const fresh = await linkSentTo(church.user.email, 2);
    expect(fresh).not.toBe(link);
    // Registration took one of the 5 an hour; 4 more on demand, then 429 with Retry-After.
    for (let i = 0; i < 3; i++) expect((await church.client.post('/api/account/verification-email')).status).toBe(200);
    const limited = await church.client.post('/api/account/verification-email');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      message: 'At most 5 verification emails an hour. Please try again later.',
      code: 'TOO_MANY_REQUESTS',
    });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    expect((await usePage(fresh, 'POST')).status).toBe(200);
    const done = await church.client.post('/api/account/verification-email');
    expect(done.status).toBe(400);
    expect(done.body.message).toBe('Your email address is already verified');
  });

  it('a new account email resets verification; links sent to the former address stop working', async () => {
    const church = await registerChurch(app.url, 'Trinity');
    const oldLink = await linkSentTo(church.user.email);
    await verify(church);
    expect((await church.client.get('/api/account/status')).body.emailVerified).toBe(true);
    // A second link to the old address, unused.
    await app.db.updateTable('users').set({ emailVerifiedAt: null }).where('id', '=', church.user.id).execute();
    await church.client.post('/api/account/verification-email');
    const unused = await linkSentTo(church.user.email, 2);
    await app.db
      .updateTable('users')
      .set({ emailVerifiedAt: sql<Date>`now()` })
      .where('id', '=', church.user.id)
      .execute();

    const newEmail = `new-${church.user.email}`;
    const changed = await church.client.patch('/api/account', { email: newEmail, currentPassword: church.password });
    expect(changed.status).toBe(200);
    const status = (await church.client.get('/api/account/status')).body;
    expect(status).toMatchObject({ email: newEmail, emailVerified: false, limit: 100, source: 'unverified' });
    expect((await usePage(unused, 'POST')).status).toBe(404);
    expect((await usePage(oldLink, 'POST')).status).toBe(404);
    // The new address got its own link.
    const newLink = await linkSentTo(newEmail);
    expect((await usePage(newLink, 'POST')).status).toBe(200);
    expect((await church.client.get('/api/account/status')).body.emailVerified).toBe(true);
  });
});

describe('100 recipients a day until the account email is verified', () => {
  it('refuses the 101st recipient with the numbers and how to lift it, and allows it after verification', async () => {
    const church = await registerChurch(app.url, 'St Mark');
    const hundred = await listOf(church, 100);
    const one = await listOf(church, 1);

    const first = await emailCampaign(church.client, hundred.id);
    const sent = await church.client.post(`/api/email-campaigns/${first.id}/send`);
    expect(sent.status).toBe(200);
    expect(['sending', 'sent']).toContain(sent.body.status);
    expect((await church.client.get('/api/account/status')).body).toMatchObject({ usedLast24h: 100, remaining: 0 });

    const second = await emailCampaign(church.client, one.id);
    const refused = await church.client.post(`/api/email-campaigns/${second.id}/send`);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 'TOO_MANY_REQUESTS',
      message:
        'This campaign would reach 1 person, but until your account email is verified your church can send to at most ' +
        '100 people a day (100 in the last 24 hours, 0 left). Verify your email on the Account page to lift this limit.',
    });
    // Nothing was enqueued for the refused campaign; it is still a draft.
    expect((await church.client.get(`/api/email-campaigns/${second.id}`)).body.status).toBe('draft');
    const queued = await app.db
      .selectFrom('deliveries')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('campaignId', '=', second.id)
      .where('channel', '=', 'email')
      .executeTakeFirstOrThrow();
    expect(queued.n).toBe(0);

    // SMS campaigns count against the same daily limit.
    const sms = await church.client.post('/api/sms-campaigns', {
      name: 'Reminder',
      content: 'See you Sunday',
      status: 'draft',
      listIds: [one.id],
    });
    expect(sms.status).toBe(201);
    expect((await church.client.post(`/api/sms-campaigns/${sms.body.id}/send`)).status).toBe(429);

    // Deleting the sent campaign does not give its recipients back.
    await waitFor(async () => (await church.client.get(`/api/email-campaigns/${first.id}`)).body.status === 'sent');
    expect((await church.client.delete(`/api/email-campaigns/${first.id}`)).status).toBe(200);
    expect((await church.client.post(`/api/email-campaigns/${second.id}/send`)).status).toBe(429);

    await verify(church);
    const allowed = await church.client.post(`/api/email-campaigns/${second.id}/send`);
    expect(allowed.status).toBe(200);
    expect((await church.client.get('/api/account/status')).body).toMatchObject({
      usedLast24h: 101,
      limit: null,
      remaining: null,
    });
  });

  it('refuses a single campaign of 101 people; a scheduled one fails with the reason on the campaign', async () => {
    const church = await registerChurch(app.url, 'St Luke');
    const big = await listOf(church, 101);
    const now = await emailCampaign(church.client, big.id);
    const refused = await church.client.post(`/api/email-campaigns/${now.id}/send`);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toContain('This campaign would reach 101 people');

    const scheduled = await emailCampaign(church.client, big.id, {
      status: 'scheduled',
      scheduledFor: new Date(Date.now() + 1000).toISOString(),
    });
    await waitFor(
      async () => (await church.client.get(`/api/email-campaigns/${scheduled.id}`)).body.status === 'failed',
    );
    const failed = (await church.client.get(`/api/email-campaigns/${scheduled.id}`)).body;
    expect(failed.error).toBe(
      'This campaign would reach 101 people, but until your account email is verified your church can send to at ' +
        'most 100 people a day (0 in the last 24 hours, 100 left). Verify your email on the Account page to lift this limit.',
    );
  });
});

describe("an administrator sets a church's daily limit", () => {
  it('lifts and lowers the limit; the default returns with null; a church user gets 403', async () => {
    const church = await registerChurch(app.url, 'St John');
    const list = await listOf(church, 120);

    const forbidden = await church.client.put(`/api/admin/users/${church.user.id}/daily-limit`, {
      dailyRecipientLimit: 100_000,
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ message: 'Administrator access required', code: 'FORBIDDEN' });
    const trpcForbidden = await church.client.post('/trpc/admin.setDailyLimit', {
      id: church.user.id,
      dailyRecipientLimit: 100_000,
    });
    expect(trpcForbidden.status).toBe(403);

    const lifted = await admin.client.put(`/api/admin/users/${church.user.id}/daily-limit`, {
      dailyRecipientLimit: 150,
    });
    expect(lifted.status).toBe(200);
    expect(lifted.body).toMatchObject({ id: church.user.id, emailVerified: false, dailyRecipientLimit: 150 });
    expect((await church.client.get('/api/account/status')).body).toMatchObject({ limit: 150, source: 'admin' });
    const c1 = await emailCampaign(church.client, list.id);
    expect((await church.client.post(`/api/email-campaigns/${c1.id}/send`)).status).toBe(200);

    // Verified, yet lowered by the administrator: the administrator's number holds.
    await verify(church);
    await admin.client.put(`/api/admin/users/${church.user.id}/daily-limit`, { dailyRecipientLimit: 130 });
    const c2 = await emailCampaign(church.client, (await listOf(church, 11)).id);
    const refused = await church.client.post(`/api/email-campaigns/${c2.id}/send`);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(
      'This campaign would reach 11 people, but your church can send to at most 130 people a day, a limit set by the ' +
        'platform administrator (120 in the last 24 hours, 10 left). Please contact the administrator to change it.',
    );

    const reset = await admin.client.put(`/api/admin/users/${church.user.id}/daily-limit`, {
      dailyRecipientLimit: null,
    });
    expect(reset.body).toMatchObject({ emailVerified: true, dailyRecipientLimit: null });
    expect((await church.client.post(`/api/email-campaigns/${c2.id}/send`)).status).toBe(200);

    const users = (await admin.client.get('/api/admin/users')).body as { id: number; emailVerified: boolean }[];
    expect(users.find((u) => u.id === church.user.id)).toMatchObject({
      emailVerified: true,
      dailyRecipientLimit: null,
    });
    const bad = await admin.client.put(`/api/admin/users/${church.user.id}/daily-limit`, { dailyRecipientLimit: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('The limit cannot be negative');
    expect((await admin.client.put('/api/admin/users/2147483647/daily-limit', { dailyRecipientLimit: 5 })).status).toBe(
      404,
    );
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}
