import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { demoGift, projectPayload } from '../helpers/show-up.js';

const app = await startTestApp();
const admin = await registerChurch(app.url, 'Platform');
const a = await registerChurch(app.url, 'Grace Church');
const b = await registerChurch(app.url, 'Hope Chapel');
const visitor = new HttpClient(app.url, {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
});

const specContent = {
  headline: 'Easter at Grace',
  subheading: 'Join us for a joyful morning.',
  mainContent: 'We would love to see you.\n\nBring the whole family.',
  callToAction: 'Plan your visit',
  keyPoints: ['Kids programme', 'Coffee after', 'Free parking'],
};

let n = 0;
const slug = (s: string) => `${s}-${Date.now().toString(36)}-${n++}`;

async function createPage(client: HttpClient, over: Record<string, unknown> = {}) {
  const res = await client.post('/api/landing-pages', {
    name: 'Easter Sunday',
    slug: slug('easter'),
    content: specContent,
    ...over,
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; slug: string; content: any; published: boolean; publishedAt: string | null };
}

async function flushVisits() {
  await app.deps.pages.visits.flush();
}

describe('landing pages API', () => {
  it('answers 401 to a visitor on every signed-in endpoint', async () => {
    const anon = new HttpClient(app.url);
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/landing-pages'],
      ['POST', '/api/landing-pages', {}],
      ['GET', '/api/landing-pages/1'],
      ['PUT', '/api/landing-pages/1', {}],
      ['DELETE', '/api/landing-pages/1'],
      ['POST', '/api/landing-pages/1/publish', { published: true }],
      ['POST', '/api/landing-pages/1/duplicate', {}],
      ['GET', '/api/landing-pages/1/stats'],
      ['POST', '/api/ai-generator/landing-page', {}],
      ['POST', '/api/ai-generator/section', {}],
      ['GET', '/api/ai-generator/status'],
    ];
    for (const [method, path, body] of calls)
      expect((await anon.request(method, path, body)).status, `${method} ${path}`).toBe(401);
  });

  it('validates with the spec messages, never a 500', async () => {
    const noName = await a.client.post('/api/landing-pages', { slug: 'abc' });
    expect(noName.status).toBe(400);
    expect(noName.body.message).toBe('Name is required');
    const noSlug = await a.client.post('/api/landing-pages', { name: 'Easter' });
    expect(noSlug.body.message).toBe('Slug is required');
    expect(noSlug.body.issues[0].path).toBe('slug');
    const badSlug = await a.client.post('/api/landing-pages', { name: 'Easter', slug: 'Easter Sunday!' });
    expect(badSlug.status).toBe(400);
    expect(badSlug.body.message).toBe('Slug can only contain lowercase letters, numbers, and hyphens');
    const badBlock = await a.client.post('/api/landing-pages', {
      name: 'x',
      slug: slug('x'),
      content: { blocks: [{ id: 'b1', type: 'cta', text: 'Go', link: { kind: 'url', url: 'javascript:alert(1)' } }] },
    });
    expect(badBlock.status).toBe(400);
    expect(badBlock.body.message).toBe('Please enter a valid URL');
    const unknownBlock = await a.client.post('/api/landing-pages', {
      name: 'x',
      slug: slug('x'),
      content: { blocks: [{ id: 'b1', type: 'video' }] },
    });
    expect(unknownBlock.status).toBe(400);
    expect((await a.client.get('/api/landing-pages/abc')).status).toBe(400);
    expect((await a.client.get('/api/landing-pages/99999999999')).status).toBe(400);
  });

  it('keeps slugs unique across the platform (409 on the slug field)', async () => {
    const page = await createPage(a.client);
    const taken = await b.client.post('/api/landing-pages', { name: 'Other', slug: page.slug });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ message: 'Slug is already taken', issues: [{ path: 'slug' }] });
    const other = await createPage(a.client);
    const rename = await a.client.put(`/api/landing-pages/${other.id}`, {
      name: 'x',
      slug: page.slug,
      content: specContent,
    });
    expect(rename.status).toBe(409);
  });

  it('builds default blocks from the spec content, and the spec fields from blocks', async () => {
    const page = await createPage(a.client);
    expect(page.published).toBe(false);
    expect(page.publishedAt).toBeNull();
    expect(page.content.blocks.map((x: { type: string }) => x.type)).toEqual(['hero', 'cta', 'text', 'highlights']);
    expect(page.content.mainContent).toBe('<p>We would love to see you.</p><p>Bring the whole family.</p>');

    const blocks = [
      { id: 'h1', type: 'hero', headline: 'Carols by Candlelight', subheading: 'A night of songs' },
      { id: 't1', type: 'text', html: '<p>Hello <strong>friends</strong><script>alert(1)</script></p>' },
      { id: 'k1', type: 'highlights', title: 'Why come', items: ['Music', 'Mince pies'] },
      { id: 'c1', type: 'cta', text: 'Sign up now', link: { kind: 'signup', blockId: 's1' } },
      { id: 's1', type: 'signup', title: 'Stay in touch', listId: null, fields: ['phone'] },
    ];
    const put = await a.client.put(`/api/landing-pages/${page.id}`, {
      name: 'Carols',
      slug: page.slug,
      content: { blocks },
    });
    expect(put.status).toBe(200);
    expect(put.body.content).toMatchObject({
      headline: 'Carols by Candlelight',
      subheading: 'A night of songs',
      mainContent: '<p>Hello <strong>friends</strong></p>',
      callToAction: 'Sign up now',
      keyPoints: ['Music', 'Mince pies'],
    });
    expect(put.body.content.blocks.map((x: { id: string }) => x.id)).toEqual(['h1', 't1', 'k1', 'c1', 's1']);
    const got = await a.client.get(`/api/landing-pages/${page.id}`);
    expect(got.body.content).toEqual(put.body.content);
  });

  it('publishes and unpublishes; the public API answers only published pages', async () => {
    const page = await createPage(a.client);
    const draft = await visitor.get(`/api/landing-pages/slug/${page.slug}`);
    expect(draft.status).toBe(404);
    expect(draft.body.message).toBe("The landing page you're looking for doesn't exist or is not published yet.");
    const pub = await a.client.post(`/api/landing-pages/${page.id}/publish`, { published: true });
    expect(pub.body.published).toBe(true);
    expect(Date.parse(pub.body.publishedAt)).toBeGreaterThan(Date.now() - 60_000);
    const open = await visitor.get(`/api/landing-pages/slug/${page.slug}`);
    expect(open.status).toBe(200);
    // The spec's fields; plain-text main content is stored as paragraphs.
    expect(open.body).toMatchObject({
      slug: page.slug,
      churchName: 'Grace Church',
      content: { ...specContent, mainContent: '<p>We would love to see you.</p><p>Bring the whole family.</p>' },
    });
    const unpub = await a.client.post(`/api/landing-pages/${page.id}/publish`, { published: false });
    expect(unpub.body.publishedAt).toBeNull();
    expect((await visitor.get(`/api/landing-pages/slug/${page.slug}`)).status).toBe(404);
  });

  it('answers the public only what the page needs: no list, page or upload ids', async () => {
    const list = await a.client.post('/api/contact-lists', { name: 'Newcomers' });
    expect(list.status).toBe(201);
    const page = await createPage(a.client, {
      published: true,
      content: {
        blocks: [
          {
            id: 'h',
            type: 'hero',
            headline: 'Welcome',
            backgroundImage: { id: 7, url: 'https://example.org/hero.png' },
          },
          { id: 'form', type: 'signup', title: 'Stay in touch', listId: list.body.id, fields: ['phone'] },
        ],
      },
    });
    // The church's own view keeps them.
    const own = await a.client.get(`/api/landing-pages/${page.id}`);
    expect(own.body.content.blocks[1].listId).toBe(list.body.id);
    const open = await visitor.get(`/api/landing-pages/slug/${page.slug}`);
    expect(open.status).toBe(200);
    expect(open.body.content.blocks[1]).toMatchObject({ id: 'form', type: 'signup', fields: ['phone'] });
    expect(open.body.content.blocks[0].backgroundImage).toEqual({ url: 'https://example.org/hero.png' });
    expect(open.body.id).toBeUndefined();
    const text = JSON.stringify(open.body);
    for (const internal of ['"listId"', '"listIds"', '"userId"', `"id":${page.id}`, '"id":7'])
      expect(text, internal).not.toContain(internal);
    // The OpenAPI document says the same.
    const doc = (await visitor.get('/api/openapi.json')).body;
    const schemaText = JSON.stringify(doc.paths['/api/landing-pages/slug/{slug}'].get.responses['200']);
    expect(schemaText).not.toContain('listId');
    expect(schemaText).toContain('churchName');
  });

  it("answers 404 for another church's page on every endpoint", async () => {
    const page = await createPage(a.client);
    expect((await b.client.get(`/api/landing-pages/${page.id}`)).status).toBe(404);
    expect(
      (await b.client.put(`/api/landing-pages/${page.id}`, { name: 'x', slug: slug('x'), content: specContent }))
        .status,
    ).toBe(404);
    expect((await b.client.post(`/api/landing-pages/${page.id}/publish`, { published: true })).status).toBe(404);
    expect((await b.client.post(`/api/landing-pages/${page.id}/duplicate`, {})).status).toBe(404);
    expect((await b.client.get(`/api/landing-pages/${page.id}/stats`)).status).toBe(404);
    expect((await b.client.delete(`/api/landing-pages/${page.id}`)).status).toBe(404);
    expect((await b.client.get('/api/landing-pages')).body.map((p: { id: number }) => p.id)).not.toContain(page.id);
    expect((await a.client.get(`/api/landing-pages/${page.id}`)).status).toBe(200);
  });

  it('duplicates as a draft at a free slug, and deletes', async () => {
    const page = await createPage(a.client, { published: true });
    const copy = await a.client.post(`/api/landing-pages/${page.id}/duplicate`, {});
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ name: 'Easter Sunday (copy)', slug: `${page.slug}-copy`, published: false });
    const copy2 = await a.client.post(`/api/landing-pages/${page.id}/duplicate`, {});
    expect(copy2.body.slug).toBe(`${page.slug}-copy-2`);
    expect((await a.client.delete(`/api/landing-pages/${page.id}`)).body).toEqual({ id: page.id });
    expect((await a.client.get(`/api/landing-pages/${page.id}`)).status).toBe(404);
    expect((await visitor.get(`/p/${page.slug}`)).status).toBe(404);
  });
});

describe('the public page /p/{slug}', () => {
  it('is server-rendered HTML with the blocks, social tags, a small script and cache headers', async () => {
    const page = await createPage(a.client, { published: true });
    const res = await fetch(`${app.url}/p/${page.slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=30');
    const etag = res.headers.get('etag');
    expect(etag).toBeTruthy();
    const html = await res.text();
    expect(html).toContain('<h1 class="h">Easter at Grace</h1>');
    expect(html).toContain('<p>Join us for a joyful morning.</p>');
    expect(html).toContain('<h2>Key Highlights</h2><ol class="kp"><li>Kids programme</li>');
    expect(html).toContain(`© ${new Date().getFullYear()} Grace Church`);
    expect(html).toContain(`<link rel="canonical" href="http://localhost:3000/p/${page.slug}">`);
    expect(html).toContain('<meta property="og:title" content="Easter at Grace">');
    expect(html).toContain('<meta name="description" content="Join us for a joyful morning.">');
    expect(html).toContain('<meta name="twitter:card" content="summary">');
    expect(html).not.toMatch(/<script[^>]+src=/);
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('');
    expect(gzipSync(scripts).length).toBeLessThanOrEqual(2048);
    expect(html).toContain('window.scrollY>50');

    const again = await fetch(`${app.url}/p/${page.slug}`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  });

  it('shows the new content at once after an edit, with a new ETag', async () => {
    const page = await createPage(a.client, { published: true });
    const first = await fetch(`${app.url}/p/${page.slug}`);
    await first.text();
    await a.client.put(`/api/landing-pages/${page.id}`, {
      name: 'Easter Sunday',
      slug: page.slug,
      content: { ...specContent, blocks: [], headline: 'Changed headline' },
      published: true,
    });
    const second = await fetch(`${app.url}/p/${page.slug}`, {
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    expect(second.status).toBe(200);
    expect(await second.text()).toContain('Changed headline');
  });

  it('answers the spec’s Page Not Found with status 404 for drafts and missing pages', async () => {
    const page = await createPage(a.client);
    for (const path of [`/p/${page.slug}`, '/p/no-such-page-anywhere']) {
      const res = await fetch(app.url + path);
      expect(res.status).toBe(404);
      const html = await res.text();
      expect(html).toContain('<h1>Page Not Found</h1>');
      expect(html).toContain('The landing page you&#39;re looking for doesn&#39;t exist or is not published yet.');
      expect(html).toContain('Go Back');
    }
  });

  it("shows a Show Up block's live raised / target and supporters; never another church's project", async () => {
    const mine = (await a.client.post('/api/show-up/projects', projectPayload({ title: 'New hall roof' }))).body;
    const theirs = (await b.client.post('/api/show-up/projects', projectPayload({ title: 'Their organ' }))).body;
    // A gift of 1,250 in demo mode (no Stripe keys here), through the same webhook handler.
    await demoGift(visitor, { projectId: mine.id, amount: 1250, donorEmail: 'lydia@example.org' });
    const page = await createPage(a.client, {
      published: true,
      content: {
        blocks: [
          { id: 'mine', type: 'showup', projectId: mine.id },
          { id: 'theirs', type: 'showup', projectId: theirs.id },
        ],
      },
    });
    const html = await (await fetch(`${app.url}/p/${page.slug}`)).text();
    expect(html).toContain('<h2>New hall roof</h2>');
    expect(html).toContain('<strong>$1,250</strong> raised of $5,000 goal');
    expect(html).toContain('<progress max="100" value="25" aria-label="Raised so far">25%</progress>');
    expect(html).toContain('25% · 1 supporter');
    expect(html).toContain(`<a class="btn" href="/show-up/${mine.id}">Donate Now</a>`);
    expect(html).not.toContain('Their organ');
    expect(html).not.toContain(`/show-up/${theirs.id}"`);
  });

  it('renders images lazily with srcset, events with a calendar file, and escapes text', async () => {
    const page = await createPage(a.client, {
      published: true,
      content: {
        blocks: [
          { id: 'h', type: 'hero', headline: '<b>Tom & Jerry</b>', subheading: '' },
          {
            id: 'i',
            type: 'image',
            image: { id: 1, url: '/uploads/u1/abc-large.webp', thumbnailUrl: '/uploads/u1/abc-thumb.webp' },
            alt: 'Our hall',
            caption: 'The hall',
          },
          {
            id: 'ev',
            type: 'event',
            title: 'Easter service',
            date: '2027-03-28',
            startTime: '10:30',
            endTime: '12:00',
            place: 'Main hall',
            address: '1 Church St, Springfield',
            mapUrl: 'https://maps.example.org/?q=1+Church+St',
          },
          { id: 'sh', type: 'showup', projectId: 7 },
        ],
      },
    });
    const html = await (await fetch(`${app.url}/p/${page.slug}`)).text();
    expect(html).toContain('&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;');
    expect(html).toContain(
      '<img src="/uploads/u1/abc-large.webp" srcset="/uploads/u1/abc-thumb.webp 400w, /uploads/u1/abc-large.webp 1600w"',
    );
    expect(html).toMatch(/alt="Our hall" loading="lazy"/);
    expect(html).toContain('<meta property="og:image" content="http://localhost:3000/uploads/u1/abc-large.webp">');
    expect(html).toContain('Sunday, March 28, 2027');
    expect(html).toContain('10:30 AM – 12:00 PM');
    expect(html).not.toContain('/show-up/7'); // no such project of this church: the block is left out
    const ics = await fetch(`${app.url}/p/${page.slug}/event/ev.ics`);
    expect(ics.status).toBe(200);
    expect(ics.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const body = await ics.text();
    expect(body).toContain('DTSTART:20270328T103000');
    expect(body).toContain('DTEND:20270328T120000');
    expect(body).toContain('SUMMARY:Easter service');
    expect(body).toContain('LOCATION:Main hall\\, 1 Church St\\, Springfield');
    expect((await fetch(`${app.url}/p/${page.slug}/event/nope.ics`)).status).toBe(404);
  });

  it('an event title with CR, LF, ; and , stays one SUMMARY in the calendar file', async () => {
    const title = 'Picnic\rATTACH:https://evil.example/a\nX-EVIL:1\r\nLOCATION:elsewhere; bring food, drinks';
    const page = await createPage(a.client, {
      published: true,
      content: { blocks: [{ id: 'ev', type: 'event', title, date: '2027-03-28', startTime: '10:30', place: 'Hall' }] },
    });
    const res = await fetch(`${app.url}/p/${page.slug}/event/ev.ics`);
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body.endsWith('\r\n')).toBe(true);
    expect(body.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = body
      .slice(0, -2)
      .replace(/\r\n[ \t]/g, '')
      .split('\r\n');
    const names = lines.map((l) => /^[A-Z-]+/.exec(l)?.[0]);
    expect(names.filter((n) => n === 'SUMMARY')).toHaveLength(1);
    expect(names.filter((n) => n === 'LOCATION')).toHaveLength(1);
    expect(names).not.toContain('ATTACH');
    expect(names).not.toContain('X-EVIL');
    expect(lines).toContain(
      'SUMMARY:Picnic\\nATTACH:https://evil.example/a\\nX-EVIL:1\\nLOCATION:elsewhere\\; bring food\\, drinks',
    );
  });
});

describe('visits by source', () => {
  it('counts views with their source, not crawlers, and shows them in stats, the list and the dashboard', async () => {
    const c = await registerChurch(app.url, 'Visit Church');
    const page = await createPage(c.client, { published: true });
    const qr = await c.client.post('/api/qr-codes', {
      name: 'Christmas bulletin',
      url: 'https://gracechurch.example.org/christmas',
      isShortUrl: true,
    });
    expect(qr.status).toBe(201);
    const email = await c.client.post('/api/email-campaigns', {
      name: 'Advent news',
      subject: 'Advent',
      content: '<p>Hello</p>',
      status: 'draft',
      listIds: [],
    });
    expect(email.status).toBe(201);
    // Another church's QR code: its id is counted, its name never shown.
    const theirs = await b.client.post('/api/qr-codes', { name: 'Hope secret', url: 'https://hope.example.org' });
    expect(theirs.status).toBe(201);
    const ua = { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1' };
    await fetch(`${app.url}/p/${page.slug}?lsrc=qr.${qr.body.id}`, { headers: ua });
    await fetch(`${app.url}/p/${page.slug}?lsrc=link.${qr.body.id}`, { headers: ua });
    await fetch(`${app.url}/p/${page.slug}?lsrc=email.${email.body.id}&utm_source=x`, { headers: ua });
    await fetch(`${app.url}/p/${page.slug}?lsrc=sms.${theirs.body.id}`, { headers: ua });
    await fetch(`${app.url}/p/${page.slug}?utm_source=newsletter&utm_medium=email&utm_campaign=easter`, {
      headers: ua,
    });
    await fetch(`${app.url}/p/${page.slug}`, { headers: { ...ua, referer: 'https://www.facebook.com/some/post' } });
    await fetch(`${app.url}/p/${page.slug}?lsrc=bogus`, { headers: ua });
    // Not visits: link previews and crawlers.
    await fetch(`${app.url}/p/${page.slug}`, { headers: { 'user-agent': 'facebookexternalhit/1.1' } });
    await fetch(`${app.url}/p/${page.slug}`, {
      headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' },
    });
    await fetch(`${app.url}/p/${page.slug}`, { headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0' } });
    await flushVisits();

    const rows = await app.db
      .selectFrom('landingPageVisits')
      .select(['sourceKind', 'sourceValue', 'visitorHash'])
      .where('pageId', '=', page.id)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.sourceKind, r.sourceValue])).toEqual([
      ['qr', String(qr.body.id)],
      ['link', String(qr.body.id)],
      ['email', String(email.body.id)],
      ['sms', String(theirs.body.id)],
      ['utm', 'newsletter / email / easter'],
      ['referrer', 'www.facebook.com'],
      ['direct', null],
    ]);
    // One visitor (same address and agent today): one hash, never the address itself.
    expect(new Set(rows.map((r) => r.visitorHash)).size).toBe(1);
    expect(rows[0]!.visitorHash).not.toContain('127.0.0.1');

    const stats = await c.client.get(`/api/landing-pages/${page.id}/stats`);
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ visits: 7, uniqueVisitors: 1, signups: 0, conversionRate: 0 });
    expect(stats.body.perDay).toEqual([{ day: new Date().toISOString().slice(0, 10), visits: 7, uniqueVisitors: 1 }]);
    // Sources read as the church named them; an id that is not the church's reads as deleted.
    const labels = (stats.body.sources as { label: string }[]).map((x) => x.label).sort();
    expect(labels).toEqual(
      [
        'QR code: Christmas bulletin',
        `Short link: /s/${qr.body.shortCode} (Christmas bulletin)`,
        'Email: Advent news',
        `SMS #${theirs.body.id} (deleted)`,
        'Campaign link: newsletter / email / easter',
        'www.facebook.com',
        'Direct (typed or no referrer)',
      ].sort(),
    );
    expect(stats.body.sources).toContainEqual({
      kind: 'qr',
      value: String(qr.body.id),
      label: 'QR code: Christmas bulletin',
      visits: 1,
    });
    expect(JSON.stringify(stats.body)).not.toContain('Hope secret');
    const list = await c.client.get('/api/landing-pages');
    expect(list.body.find((p: { id: number }) => p.id === page.id).visits30d).toBe(7);
    const dash = await c.client.get('/api/dashboard/stats');
    expect(dash.body.pageVisits).toBe(7);
    // Another church's dashboard does not see them.
    expect((await b.client.get('/api/dashboard/stats')).body.pageVisits).toBe(0);
  });
});

describe('sign-up forms', () => {
  async function pageWithForm(client: HttpClient, listId: number | null) {
    return createPage(client, {
      published: true,
      content: {
        blocks: [
          { id: 'h', type: 'hero', headline: 'Youth camp', subheading: 'Summer 2027' },
          { id: 'form', type: 'signup', title: 'Register interest', listId, fields: ['phone', 'city'] },
        ],
      },
    });
  }

  it('works without JavaScript: a plain POST creates the contact on the list, pending until confirmed by email', async () => {
    const c = await registerChurch(app.url, 'Signup Church');
    const list = await c.client.post('/api/contact-lists', { name: 'Youth parents' });
    expect(list.status).toBe(201);
    const page = await pageWithForm(c.client, list.body.id);
    const html = await (await fetch(`${app.url}/p/${page.slug}`)).text();
    expect(html).toContain(`<form class="su" method="post" action="/p/${page.slug}/signup/form">`);
    expect(html).toContain('<label>Phone (optional)<input name="phone" type="tel"');

    const res = await fetch(`${app.url}/p/${page.slug}/signup/form`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        referer: `http://localhost:3000/p/${page.slug}?lsrc=qr.44`,
        'user-agent': 'Mozilla/5.0 Firefox/130.0',
      },
      body: new URLSearchParams({
        name: 'Ada Lovelace',
        email: 'Ada@Example.org',
        phone: '0412 345 678',
        city: 'Sydney',
        website: '',
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Please check your email and confirm your address');

    const contact = await app.db
      .selectFrom('contacts')
      .selectAll()
      .where('userId', '=', c.user.id)
      .where('email', '=', 'ada@example.org')
      .executeTakeFirstOrThrow();
    expect(contact).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '0412 345 678',
      emailConsent: 'unsubscribed',
    });
    expect(contact.metadata).toMatchObject({ city: 'Sydney' });
    const onList = await c.client.get(`/api/contact-lists/${list.body.id}/contacts`);
    expect(JSON.stringify(onList.body)).toContain('ada@example.org');
    const signup = await app.db
      .selectFrom('landingPageSignups')
      .selectAll()
      .where('pageId', '=', page.id)
      .executeTakeFirstOrThrow();
    expect(signup).toMatchObject({ sourceKind: 'qr', sourceValue: '44', contactId: contact.id, confirmedAt: null });

    const mail = await app.db
      .selectFrom('outboxMessages')
      .selectAll()
      .where('toAddress', '=', 'ada@example.org')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Please confirm your sign-up: Easter Sunday');
    expect(mail.userId).toBe(c.user.id);
    const link = /http:\/\/localhost:3000(\/p\/[^"\s]+\/confirm\/[A-Za-z0-9_-]+)/.exec(mail.text ?? '')![1]!;

    const confirmPage = await fetch(app.url + link);
    expect(await confirmPage.text()).toContain('Confirm my sign-up');
    // Opening the link (a mail scanner) changes nothing.
    expect(
      (
        await app.db
          .selectFrom('contacts')
          .select('emailConsent')
          .where('id', '=', contact.id)
          .executeTakeFirstOrThrow()
      ).emailConsent,
    ).toBe('unsubscribed');
    const confirmed = await fetch(app.url + link, { method: 'POST' });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('is confirmed');
    const after = await app.db
      .selectFrom('contacts')
      .selectAll()
      .where('id', '=', contact.id)
      .executeTakeFirstOrThrow();
    expect(after).toMatchObject({ emailConsent: 'subscribed', emailConsentSource: `landing-page:${page.slug}` });
    const history = await c.client.get(`/api/contacts/${contact.id}/consent`);
    expect(history.body[0]).toMatchObject({
      channel: 'email',
      status: 'subscribed',
      source: `landing-page:${page.slug}`,
      note: 'Confirmed by double opt-in',
    });
    const stats = await c.client.get(`/api/landing-pages/${page.id}/stats`);
    expect(stats.body).toMatchObject({ signups: 1, confirmedSignups: 1 });
    expect(stats.body.recentSignups[0]).toMatchObject({
      name: 'Ada Lovelace',
      confirmed: true,
      sourceKind: 'qr',
      sourceLabel: 'QR code #44 (deleted)',
    });
    expect((await fetch(app.url + link.replace(/confirm\/.*/, 'confirm/not-a-token'))).status).toBe(404);

    // The person's timeline: what the visitor did, newest first, as the public.
    const activity = await c.client.get(`/api/contacts/${contact.id}/events`);
    expect(activity.status).toBe(200);
    const events = (activity.body.events as { type: string; actor: unknown; data: Record<string, unknown> }[]).filter(
      (e) => e.type !== 'consent.changed',
    );
    expect(events.map((e) => e.type)).toEqual([
      'signup.confirmed',
      'signup.received',
      'list.member_added',
      'contact.created',
    ]);
    expect(events.every((e) => (e.actor as { kind: string }).kind === 'public')).toBe(true);
    expect(events[1]!.data).toEqual({
      person: { name: 'Ada Lovelace', email: 'ada@example.org', phone: '0412 345 678' },
      page: { id: page.id, name: 'Easter Sunday' },
      block: { id: 'form', kind: 'signup' },
      source: { kind: 'qr', id: 44, name: 'QR code #44 (deleted)' },
      confirmationRequired: true,
    });
    expect(events[2]!.data).toMatchObject({ list: { id: list.body.id, name: 'Youth parents' } });
  });

  /** The confirmation link of the newest sign-up mail to `email`. */
  async function confirmLink(email: string): Promise<string> {
    const mail = await app.db
      .selectFrom('outboxMessages')
      .select('text')
      .where('toAddress', '=', email)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return /http:\/\/localhost:3000(\/p\/[^"\s]+\/confirm\/[A-Za-z0-9_-]+)/.exec(mail.text ?? '')![1]!;
  }
  /** A visitor of its own (sign-ups are limited per visitor). */
  const stranger = (n: number) => new HttpClient(app.url, { 'user-agent': `Mozilla/5.0 Firefox/${n}.0` });
  const contactRow = (id: number) =>
    app.db.selectFrom('contacts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it("never overwrites an existing member's phone: kept on the sign-up for staff, who may 'Use it'", async () => {
    const c = await registerChurch(app.url, 'Update Church');
    const existing = await c.client.post('/api/contacts', {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.org',
      phone: '412 000 111',
      metadata: { countryCode: '+61' },
    });
    expect(existing.status, existing.text).toBe(201);
    const before = await contactRow(existing.body.id);
    const page = await pageWithForm(c.client, null);
    // A stranger types the member's email with their own phone and city (JSON from the page script).
    const res = await stranger(101).post(`/p/${page.slug}/signup/form`, {
      name: 'Grace Hopper',
      email: 'GRACE@example.org',
      phone: '0499 999 999',
      city: 'Sydney',
      ref_q: '?utm_source=bulletin',
      ref_r: '',
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toContain('Thank you!');
    const rows = await app.db.selectFrom('contacts').selectAll().where('userId', '=', c.user.id).execute();
    expect(rows).toHaveLength(1);
    // Not a field of the member changed; the church's next text still goes to the member's number.
    expect(rows[0]).toMatchObject({
      id: existing.body.id,
      phone: '412 000 111',
      phoneE164: '+61412000111',
      smsConsent: before.smsConsent,
      emailConsent: 'subscribed',
    });
    expect(rows[0]!.metadata.city).toBeUndefined();
    expect(rows[0]!.tags).toContain('landing-page');
    const s = await app.db
      .selectFrom('landingPageSignups')
      .selectAll()
      .where('pageId', '=', page.id)
      .executeTakeFirstOrThrow();
    expect(s).toMatchObject({
      sourceKind: 'utm',
      sourceValue: 'bulletin',
      contactId: existing.body.id,
      phone: '0499 999 999',
      city: 'Sydney',
    });

    // Confirmed (by whoever reads the member's mail): only the empty city is filled, never the phone.
    expect((await fetch(app.url + (await confirmLink('grace@example.org')), { method: 'POST' })).status).toBe(200);
    const confirmed = await contactRow(existing.body.id);
    expect(confirmed).toMatchObject({ phone: '412 000 111', phoneE164: '+61412000111', smsConsent: before.smsConsent });
    expect(confirmed.metadata.city).toBe('Sydney');

    // Staff see the different phone beside the sign-up, and choose.
    const stats = await c.client.get(`/api/landing-pages/${page.id}/stats`);
    expect(stats.body.recentSignups[0].differences).toEqual([
      { field: 'phone', value: '0499 999 999', current: '412 000 111' },
    ]);
    // Another church cannot apply it (404), a field the sign-up did not bring is a 400.
    expect((await b.client.post(`/api/landing-page-signups/${s.id}/use`, { field: 'phone' })).status).toBe(404);
    const noField = await c.client.post(`/api/landing-page-signups/${s.id}/use`, { field: 'postalCode' });
    expect(noField.status).toBe(400);
    expect(noField.body.message).toBe('This sign-up has no postal code');
    expect((await contactRow(existing.body.id)).phone).toBe('412 000 111');
    const used = await c.client.post(`/api/landing-page-signups/${s.id}/use`, { field: 'phone' });
    expect(used.status, used.text).toBe(200);
    expect(used.body).toEqual({ contactId: existing.body.id });
    expect(await contactRow(existing.body.id)).toMatchObject({ phone: '0499 999 999', phoneE164: '+61499999999' });
    const after = await c.client.get(`/api/landing-pages/${page.id}/stats`);
    expect(after.body.recentSignups[0].differences).toEqual([]);
  });

  it("fills an existing contact's empty phone only once the sign-up is confirmed", async () => {
    const c = await registerChurch(app.url, 'Fill Church');
    const existing = await c.client.post('/api/contacts', {
      firstName: 'Mary',
      lastName: 'Jackson',
      email: 'mary@example.org',
      phone: '0400 111 222',
      metadata: { countryCode: '+61' },
    });
    expect(existing.status, existing.text).toBe(201);
    // A contact without a phone (an import can make one).
    await app.db
      .updateTable('contacts')
      .set({ phone: null, phoneE164: null })
      .where('id', '=', existing.body.id)
      .execute();
    const page = await pageWithForm(c.client, null);
    const res = await stranger(102).post(`/p/${page.slug}/signup/form`, {
      name: 'Mary Jackson',
      email: 'mary@example.org',
      phone: '0412 345 678',
    });
    expect(res.status).toBe(200);
    expect(await contactRow(existing.body.id)).toMatchObject({ phone: null, phoneE164: null });
    expect((await fetch(app.url + (await confirmLink('mary@example.org')), { method: 'POST' })).status).toBe(200);
    expect(await contactRow(existing.body.id)).toMatchObject({ phone: '0412 345 678', phoneE164: '+61412345678' });
    const stats = await c.client.get(`/api/landing-pages/${page.id}/stats`);
    expect(stats.body.recentSignups[0].differences).toEqual([]);
  });

  it("reads a sign-up's phone in the church's default country", async () => {
    const c = await registerChurch(app.url, 'Default Country Church');
    expect((await c.client.put('/api/settings', { defaultCountryCode: '+1' })).status).toBe(200);
    const page = await pageWithForm(c.client, null);
    const res = await stranger(103).post(`/p/${page.slug}/signup/form`, {
      name: 'Ann Arbor',
      email: 'ann@example.org',
      phone: '4155550100',
    });
    expect(res.status).toBe(200);
    const contact = await app.db
      .selectFrom('contacts')
      .selectAll()
      .where('userId', '=', c.user.id)
      .executeTakeFirstOrThrow();
    expect(contact).toMatchObject({ phone: '4155550100', phoneE164: '+14155550100' });
    expect(contact.metadata.countryCode).toBe('+1');
  });

  it('validates, ignores the honeypot and limits sign-ups per address', async () => {
    const c = await registerChurch(app.url, 'Limit Church');
    const page = await pageWithForm(c.client, null);
    const path = `/p/${page.slug}/signup/form`;
    const bad = await visitor.post(path, { name: 'X', email: 'not-an-email' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Please enter a valid email address');
    const noName = await visitor.post(path, { name: ' ', email: 'a@example.org' });
    expect(noName.body.message).toBe('Name is required');
    const formBad = await fetch(app.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=&email=x',
    });
    expect(formBad.status).toBe(400);
    expect(await formBad.text()).toContain('Name is required');

    const bot = await visitor.post(path, { name: 'Bot', email: 'bot@example.org', website: 'http://spam.example' });
    expect(bot.status).toBe(200);
    expect(await app.db.selectFrom('contacts').select('id').where('email', '=', 'bot@example.org').execute()).toEqual(
      [],
    );

    for (let i = 0; i < 3; i++)
      expect((await visitor.post(path, { name: 'Same Person', email: 'same@example.org' })).status).toBe(200);
    const limited = await visitor.post(path, { name: 'Same Person', email: 'same@example.org' });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe('Too many sign-ups from here. Please try again later.');
    expect((await visitor.post(`/p/${page.slug}/signup/nope`, { name: 'A', email: 'a@example.org' })).status).toBe(404);
    expect((await visitor.post(`/p/no-such-page-x/signup/form`, { name: 'A', email: 'a@example.org' })).status).toBe(
      404,
    );
  });
});

describe('templates: Use on a landing-page template', () => {
  it('creates a draft page from the template', async () => {
    const t = await admin.client.post('/api/admin/marketing-templates', {
      name: 'Welcome Sunday',
      type: 'landing-page',
      category: 'welcome',
      content: { headline: 'Welcome home', subheading: 'Come as you are', keyPoints: ['Friendly people'] },
    });
    expect(t.status).toBe(201);
    expect(
      (await admin.client.post('/api/admin/assignments', { userId: a.user.id, templateId: t.body.id })).status,
    ).toBe(201);
    const used = await a.client.post(`/api/templates/${t.body.id}/use`, {});
    expect(used.status).toBe(200);
    expect(used.body.kind).toBe('landing-page');
    const page = await a.client.get(`/api/landing-pages/${used.body.id}`);
    expect(page.body).toMatchObject({ name: 'Welcome Sunday', slug: 'welcome-sunday', published: false });
    expect(page.body.content).toMatchObject({ headline: 'Welcome home', keyPoints: ['Friendly people'] });
    expect(used.body.path).toBe(`/landing-pages/${used.body.id}`);
    const again = await a.client.post(`/api/templates/${t.body.id}/use`, {});
    expect((await a.client.get(`/api/landing-pages/${again.body.id}`)).body.slug).toBe('welcome-sunday-2');
  });
});
