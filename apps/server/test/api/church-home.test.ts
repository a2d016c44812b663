import { describe, expect, it } from 'vitest';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { projectPayload } from '../helpers/show-up.js';

// A church's public home: Settings → Public profile, and /c/{handle}.
const app = await startTestApp();
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace City Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
const visitor = new HttpClient(app.url, { 'user-agent': 'Mozilla/5.0 Firefox/131.0' });
const HANDLE_MESSAGE = 'Use 3–40 lowercase letters, numbers and hyphens';

const profile = (over: Record<string, unknown> = {}) => ({
  handle: 'grace-city',
  description: 'A church for the whole city.',
  address: '1 Church Street\nSpringfield',
  serviceTimes: 'Sundays 9:00 and 10:30 am',
  website: 'gracecity.example.org',
  ...over,
});

async function page(path: string) {
  const res = await fetch(app.url + path, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}

describe('Settings → Public profile', () => {
  it('suggests a free handle from the church name until saved', async () => {
    const res = await grace.client.get('/api/settings/public-profile');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ handle: 'grace-city-church', saved: false, description: '', logo: null });
    expect(res.body.url).toMatch(/\/c\/grace-city-church$/);
  });

  it('refuses a bad handle naming the field, and saves a good one (in lowercase)', async () => {
    for (const handle of ['ab', 'Grace City', 'grace--city', '-grace', 'a'.repeat(41), 'grâce']) {
      const bad = await grace.client.put('/api/settings/public-profile', profile({ handle }));
      expect(bad.status, handle).toBe(400);
      expect(bad.body.issues[0]).toEqual({ path: 'handle', message: HANDLE_MESSAGE });
    }
    const ok = await grace.client.put('/api/settings/public-profile', profile({ handle: 'Grace-City' }));
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ handle: 'grace-city', saved: true, website: 'https://gracecity.example.org' });
  });

  it("answers 409 'This handle is taken' on another church's handle", async () => {
    const taken = await hope.client.put('/api/settings/public-profile', profile({ handle: 'grace-city' }));
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ message: 'This handle is taken' });
    expect(taken.body.issues).toEqual([{ path: 'handle', message: 'This handle is taken' }]);
  });
});

describe('/c/{handle}', () => {
  it('shows the church, its published pages, active projects and public lists; not drafts or private lists', async () => {
    const list = await grace.client.post('/api/contact-lists', {
      name: 'Newsletter',
      isPublic: true,
      publicDescription: 'News once a month.',
    });
    expect(list.status, list.text).toBe(201);
    expect(list.body).toMatchObject({ isPublic: true, publicDescription: 'News once a month.' });
    await grace.client.post('/api/contact-lists', { name: 'Elders (private)' });
    const published = await grace.client.post('/api/landing-pages', {
      name: 'Easter at Grace',
      slug: 'easter-at-grace-city',
      published: true,
      content: { headline: 'Rise up this Easter' },
    });
    expect(published.status, published.text).toBe(201);
    await grace.client.post('/api/landing-pages', { name: 'Secret draft', slug: 'secret-draft-grace' });
    const project = await grace.client.post(
      '/api/show-up/projects',
      projectPayload({ title: 'New roof for the hall' }),
    );
    expect(project.status, project.text).toBe(201);

    const home = await page('/c/grace-city');
    expect(home.status).toBe(200);
    expect(home.html).toContain('<h1>Grace City Church</h1>');
    expect(home.html).toContain('Sundays 9:00 and 10:30 am');
    expect(home.html).toContain('<meta property="og:title" content="Grace City Church">');
    expect(home.html).toContain('href="/p/easter-at-grace-city"');
    expect(home.html).toContain('Rise up this Easter');
    expect(home.html).not.toContain('Secret draft');
    expect(home.html).toContain('New roof for the hall');
    expect(home.html).toContain(`name="list_${list.body.id}"`);
    expect(home.html).toContain('News once a month.');
    expect(home.html).not.toContain('Elders (private)');
    // The giving page is one click away: in the header and as a clear button.
    expect(home.html).toContain('<a href="/c/grace-city/give">Give</a>');
    expect(home.html).toContain('<a class="btn give-btn" href="/c/grace-city/give">Give to Grace City Church</a>');
    // The address on a map: a plain link to OpenStreetMap's search, the lines joined.
    expect(home.html).toContain(
      'href="https://www.openstreetmap.org/search?query=1%20Church%20Street%2C%20Springfield"',
    );
    // A public list's description, under its name.
    expect(home.html).toContain('<small>News once a month.</small>');
    // At most 2 KB of JavaScript.
    const scripts = [...home.html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts.join('').length).toBeLessThanOrEqual(2048);
    expect(home.html).not.toMatch(/<script[^>]+src=/);
  });

  it('says no church is at an unknown or malformed handle, and lowercases one typed in capitals', async () => {
    for (const path of ['/c/no-such-church', '/c/x', '/c/%3Cscript%3E']) {
      const res = await page(path);
      expect(res.status, path).toBe(404);
      expect(res.html).toContain('<h1>Church not found</h1>');
      expect(res.html).toContain('We couldn&#39;t find a church at this address.');
      expect(res.html).not.toContain('landing page');
    }
    const upper = await page('/c/Grace-City');
    expect(upper).toMatchObject({ status: 301, location: '/c/grace-city' });
  });

  it('keeps an old handle redirecting for a year, and no other church may take it meanwhile', async () => {
    const moved = await grace.client.put('/api/settings/public-profile', profile({ handle: 'grace-city-church' }));
    expect(moved.status, moved.text).toBe(200);
    expect(await page('/c/grace-city')).toMatchObject({ status: 301, location: '/c/grace-city-church' });
    expect((await page('/c/grace-city-church')).status).toBe(200);
    const grab = await hope.client.put('/api/settings/public-profile', profile({ handle: 'grace-city' }));
    expect(grab.status).toBe(409);
    // The church may take its own old handle back.
    const back = await grace.client.put('/api/settings/public-profile', profile({ handle: 'grace-city' }));
    expect(back.status, back.text).toBe(200);
    expect((await page('/c/grace-city')).status).toBe(200);
    expect(await page('/c/grace-city-church')).toMatchObject({ status: 301, location: '/c/grace-city' });
  });

  it('signs someone up to the public lists they tick, confirmed by email with the home as the source', async () => {
    const lists = (await grace.client.get('/api/contact-lists')).body as { id: number; name: string }[];
    const newsletter = lists.find((l) => l.name === 'Newsletter')!;
    const elders = lists.find((l) => l.name === 'Elders (private)')!;
    const none = await visitor.post('/c/grace-city/join', {
      name: 'Priscilla Tent',
      email: 'priscilla@example.org',
      [`list_${elders.id}`]: 'on',
    });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ message: 'Choose at least one list to join' });

    const joined = await visitor.post('/c/grace-city/join', {
      name: 'Priscilla Tent',
      email: 'priscilla@example.org',
      [`list_${newsletter.id}`]: 'on',
      [`list_${elders.id}`]: 'on',
    });
    expect(joined.status, joined.text).toBe(200);
    const contact = await app.db
      .selectFrom('contacts')
      .select(['id', 'emailConsent'])
      .where('email', '=', 'priscilla@example.org')
      .executeTakeFirstOrThrow();
    const members = await app.db
      .selectFrom('contactsInLists')
      .select('listId')
      .where('contactId', '=', contact.id)
      .execute();
    expect(members.map((m) => m.listId)).toEqual([newsletter.id]);
    const mail = await app.db
      .selectFrom('outboxMessages')
      .select(['subject', 'text'])
      .where('toAddress', '=', 'priscilla@example.org')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Please confirm your sign-up: Grace City Church');
    const link = /http:\/\/localhost:3000(\/c\/grace-city\/confirm\/[A-Za-z0-9_-]+)/.exec(mail.text ?? '')![1]!;
    const ask = await page(link);
    expect(ask.html).toContain('Confirm my sign-up');
    const confirmed = await fetch(app.url + link, { method: 'POST' });
    expect(await confirmed.text()).toContain('href="/c/grace-city"');
    const history = await grace.client.get(`/api/contacts/${contact.id}/consent`);
    expect(history.body[0]).toMatchObject({ status: 'subscribed', source: 'church-home:grace-city' });
    const activity = await grace.client.get(`/api/contacts/${contact.id}/events`);
    const received = (activity.body.events as { type: string; data: any }[]).find((e) => e.type === 'signup.received');
    expect(received?.data).toMatchObject({ page: null, block: { id: 'lists', kind: 'church-home' } });
  });

  it("never joins another church's list, whatever id is sent", async () => {
    const theirs = await hope.client.post('/api/contact-lists', { name: 'Hope news', isPublic: true });
    const res = await visitor.post('/c/grace-city/join', {
      name: 'Aquila Tent',
      email: 'aquila@example.org',
      [`list_${theirs.body.id}`]: 'on',
    });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ path: 'lists', message: 'Choose at least one list to join' }]);
  });
});
