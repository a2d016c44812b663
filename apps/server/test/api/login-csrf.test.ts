import { describe, expect, it } from 'vitest';
import { addContact, registerChurch, startTestApp } from '../helpers/test-app.js';
import { giveHandle, linkInOutbox, Member } from '../helpers/portal.js';

// Login CSRF. A page of another site must not sign a visitor's browser in (as the
// attacker, whose link or code it holds): every POST that sets a sign-in cookie, wherever it
// lives, is refused from another site before it runs, as the staff API refuses cross-site writes.
const app = await startTestApp();
const grace = await registerChurch(app.url, 'Grace Church');
const handle = await giveHandle(app.db, grace.user.id, 'grace-csrf');
const base = `/c/${handle}/me`;
const EVIL = 'http://evil.localhost:9999';
const LINK = /http:\/\/\S+\/c\/grace-csrf\/me\/link\/[\w-]+/;

/** What a page of another site sends: its Origin, or a browser's Sec-Fetch-Site. */
const CROSS_SITE: Record<string, Record<string, string>> = {
  'a cross-site Origin': { origin: EVIL },
  'Sec-Fetch-Site: cross-site': { 'sec-fetch-site': 'cross-site' },
  'Sec-Fetch-Site: same-site': { 'sec-fetch-site': 'same-site' },
};
/** The portal's own pages (the browser's form posts). */
const sameOrigin = () => ({ origin: new URL(app.url).origin, 'sec-fetch-site': 'same-origin' });

let n = 0;
async function memberWithLink() {
  await app.db.deleteFrom('rateLimitBuckets').execute();
  const c = await addContact(grace.client, { email: `csrf${++n}@example.org` });
  expect((await new Member(app.url).post(`${base}/sign-in`, { address: c.email! })).status).toBe(200);
  return { contact: c, path: new URL(await linkInOutbox(app.db, c.email!, LINK)).pathname };
}

async function manageToken(contactId: number, email: string) {
  const token = `${'ab'.repeat(31)}${String(++n).padStart(2, '0')}`;
  const draft = await grace.client.post('/api/email-campaigns', {
    name: 'News',
    subject: 'News',
    content: '<p>Hello</p>',
    status: 'draft',
    listIds: [],
  });
  expect(draft.status, draft.text).toBe(201);
  await app.db
    .insertInto('deliveries')
    .values({ userId: grace.user.id, campaignId: draft.body.id, contactId, channel: 'email', address: email, token })
    .execute();
  return token;
}

describe('login CSRF: the portal', () => {
  it('a sign-in link pressed from another site signs nobody in, and still works from the portal', async () => {
    const { path } = await memberWithLink();
    for (const [why, headers] of Object.entries(CROSS_SITE)) {
      const victim = new Member(app.url);
      const res = await victim.post(path, undefined, headers);
      expect(res.status, why).toBe(403);
      expect(res.headers.getSetCookie(), why).toEqual([]);
      expect(victim.cookies.size, why).toBe(0);
    }
    // Refused before it ran: the link is unused, and works from the portal's own page.
    const member = new Member(app.url);
    const ok = await member.post(path, undefined, sameOrigin());
    expect(ok.status, ok.text).toBe(303);
    expect(member.cookies.size).toBe(1);
    expect((await member.get(`${base}/subscriptions`)).status).toBe(200);
  });

  it('a "manage your subscriptions" link posted from another site signs nobody in', async () => {
    const { contact } = await memberWithLink();
    const token = await manageToken(contact.id, contact.email!);
    for (const [why, headers] of Object.entries(CROSS_SITE)) {
      const victim = new Member(app.url);
      const res = await victim.post(`/u/${token}/manage`, undefined, headers);
      expect(res.status, why).toBe(403);
      expect(res.headers.getSetCookie(), why).toEqual([]);
    }
    const member = new Member(app.url);
    const ok = await member.post(`/u/${token}/manage`, undefined, sameOrigin());
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe(`${base}/subscriptions`);
    expect(member.cookies.size).toBe(1);
  });

  it('an SMS sign-in code and an email confirmation link are refused from another site, answered from the portal', async () => {
    for (const path of [`${base}/code`, `${base}/confirm/${'cd'.repeat(32)}`]) {
      const form = { address: '+61400000001', code: '123456' };
      for (const [why, headers] of Object.entries(CROSS_SITE)) {
        const res = await new Member(app.url).post(path, form, headers);
        expect(res.status, `${path}: ${why}`).toBe(403);
      }
      // From the portal's page the handler answers (a wrong code, an unknown link).
      const res = await new Member(app.url).post(path, form, sameOrigin());
      expect(res.status, path).toBe(path.endsWith('/code') ? 400 : 404);
    }
  });
});

describe('login CSRF: the staff app', () => {
  const login = (headers: Record<string, string>) =>
    fetch(`${app.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ username: grace.user.username, password: grace.password }),
    });

  it('signing in from a page of another site is refused (no cookie set); from the app or a script it works', async () => {
    for (const [why, headers] of Object.entries(CROSS_SITE)) {
      const res = await login(headers);
      expect(res.status, why).toBe(403);
      expect(res.headers.getSetCookie(), why).toEqual([]);
    }
    const trpc = await fetch(`${app.url}/trpc/auth.login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: EVIL },
      body: JSON.stringify({ username: grace.user.username, password: grace.password }),
    });
    expect(trpc.status).toBe(403);
    for (const headers of [sameOrigin(), {}]) {
      const res = await login(headers);
      expect(res.status).toBe(200);
      expect(res.headers.getSetCookie().length).toBeGreaterThan(0);
    }
  });
});
