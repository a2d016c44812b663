import { afterAll, describe, expect, it } from 'vitest';
import { addContact, HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { startLocalDns } from '../helpers/local-dns.js';

// The dashboard's getting-started checklist: each step is ticked by the church's own data (a real
// profile, contact, verified domain, campaign, published page), hiding it is kept, and nothing one
// church does ticks or hides another's.
const dns = await startLocalDns();
afterAll(() => dns.close());
const app = await startTestApp({ publicUrl: 'http://lampstand.test', dnsServer: dns.server });
await registerChurch(app.url, 'Platform');

type Checklist = {
  steps: { key: string; done: boolean }[];
  firstVisit: boolean;
  dismissed: boolean;
  show: boolean;
};
const done = (c: Checklist) => c.steps.filter((s) => s.done).map((s) => s.key);
const checklist = async (client: HttpClient) => {
  const res = await client.get('/api/dashboard/getting-started');
  expect(res.status).toBe(200);
  return res.body as Checklist;
};

describe('GET /api/dashboard/getting-started', () => {
  it('ticks each step from what the church really did; another church is unaffected', async () => {
    const grace = await registerChurch(app.url, 'Grace Church');
    const hope = await registerChurch(app.url, 'Hope Chapel');
    const fresh = await checklist(grace.client);
    expect(fresh).toEqual({
      steps: ['profile', 'people', 'email', 'campaign', 'home'].map((key) => ({ key, done: false })),
      firstVisit: true,
      dismissed: false,
      show: true,
    });

    // A page published before the profile is saved is not yet on a church home.
    const page = await grace.client.post('/api/landing-pages', {
      name: 'Easter',
      slug: `easter-${Date.now().toString(36)}`,
      content: { headline: 'Easter at Grace', subheading: 'Join us', keyPoints: [] },
    });
    expect(page.status, page.text).toBe(201);
    await grace.client.post(`/api/landing-pages/${page.body.id}/publish`, { published: true });
    expect(done(await checklist(grace.client))).toEqual([]);

    expect((await grace.client.put('/api/settings/public-profile', { handle: 'grace-first-day' })).status).toBe(200);
    expect(done(await checklist(grace.client))).toEqual(['profile', 'home']);
    expect((await checklist(grace.client)).firstVisit).toBe(false);

    await addContact(grace.client);
    const campaign = await grace.client.post('/api/email-campaigns', {
      name: 'Hello',
      subject: 'Hi',
      content: '<p>Hi</p>',
    });
    expect(campaign.status, campaign.text).toBe(201);
    expect(done(await checklist(grace.client))).toEqual(['profile', 'people', 'campaign', 'home']);

    // A domain added but not verified does not count; once its records are found, it does.
    const domain = (await grace.client.post('/api/sending-domains', { domain: 'grace-first.example' })).body as {
      id: number;
      records: { name: string; type: string; value: string }[];
    };
    expect(done(await checklist(grace.client))).not.toContain('email');
    for (const r of domain.records) dns.set(r.name, r.type as 'TXT' | 'CNAME', [r.value]);
    const verified = await grace.client.post(`/api/sending-domains/${domain.id}/verify`);
    expect(verified.body.status).toBe('verified');
    const all = await checklist(grace.client);
    expect(done(all)).toEqual(['profile', 'people', 'email', 'campaign', 'home']);
    // Everything done: the list hides itself, without being dismissed.
    expect(all).toMatchObject({ show: false, dismissed: false, firstVisit: false });

    expect(await checklist(hope.client)).toMatchObject({ firstVisit: true, show: true });
    expect(done(await checklist(hope.client))).toEqual([]);
  });

  it('counts a text campaign as a first campaign', async () => {
    const church = await registerChurch(app.url, 'Text Church');
    const res = await church.client.post('/api/sms-campaigns', { name: 'Hi', content: 'Hello from church' });
    expect(res.status, res.text).toBe(201);
    expect(done(await checklist(church.client))).toEqual(['campaign']);
  });

  it('dismissing hides it for good, for that church only', async () => {
    const grace = await registerChurch(app.url, 'Grace Again');
    const hope = await registerChurch(app.url, 'Hope Again');
    const res = await grace.client.post('/api/dashboard/getting-started/dismiss');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dismissed: true, show: false, firstVisit: false });
    // Kept: read again, and still hidden after a step is done.
    await addContact(grace.client);
    expect(await checklist(grace.client)).toMatchObject({ dismissed: true, show: false });
    expect(await checklist(hope.client)).toMatchObject({ dismissed: false, show: true, firstVisit: true });
    // Its settings row was made by the dismissal: the church's settings still read as before.
    expect((await grace.client.get('/api/settings')).body).toMatchObject({ timeZone: expect.any(String) });
  });

  it('needs a signed-in church', async () => {
    const anon = new HttpClient(app.url);
    expect((await anon.get('/api/dashboard/getting-started')).status).toBe(401);
    expect((await anon.post('/api/dashboard/getting-started/dismiss')).status).toBe(401);
  });
});
