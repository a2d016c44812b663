import { describe, expect, it } from 'vitest';
import { escapeHtml } from '@lampstand/api/render/html';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { demoGift, projectPayload } from '../helpers/show-up.js';

// Text with String.replace's replacement patterns ($`, $&, $', $1, $$) reaches every
// server-rendered page verbatim (escaped), and the page's head stays whole.
const app = await startTestApp();
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const visitor = new HttpClient(app.url);

const PATTERNS = ['$`', '$&', "$'", '$1', '$$'];
/** A field's text with every pattern in it. */
const withPatterns = (label: string) => `${label} ${PATTERNS.map((p) => `[${p}]`).join(' ')} end`;

function expectWholeHead(html: string) {
  expect(html.match(/<head>/g)?.length ?? 0, 'one <head>').toBe(1);
  expect(html.match(/<\/head>/g)?.length ?? 0, 'one </head>').toBe(1);
  expect(html.match(/<title>/g)?.length ?? 0, 'one <title>').toBe(1);
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
  expect(title).not.toContain('<');
  expect(html.indexOf('<title>')).toBeGreaterThan(html.indexOf('<head>'));
  expect(html.indexOf('</title>')).toBeLessThan(html.indexOf('</head>'));
  return title;
}

describe('replacement patterns in text on server-rendered pages', () => {
  it('the Show Up project page (/show-up/{id}): title and short description', async () => {
    const title = withPatterns('Food drive');
    const shortDescription = withPatterns('Feed families');
    const res = await grace.client.post('/api/show-up/projects', projectPayload({ title, shortDescription }));
    expect(res.status, res.text).toBe(201);
    const page = await visitor.get(`/show-up/${res.body.id}`);
    expect(page.status).toBe(200);
    expect(expectWholeHead(page.text)).toBe(`${escapeHtml(title)} | Show Up`);
    expect(page.text).toContain(`<meta property="og:title" content="${escapeHtml(title)}" />`);
    expect(page.text).toContain(`<meta property="og:description" content="${escapeHtml(shortDescription)}" />`);
  });

  it('the donation receipt: donor name and project title', async () => {
    const title = withPatterns('Roof');
    const donorName = withPatterns('Lydia');
    const p = await grace.client.post('/api/show-up/projects', projectPayload({ title }));
    expect(p.status, p.text).toBe(201);
    const { donationId } = await demoGift(visitor, {
      projectId: p.body.id,
      amount: 25,
      donorEmail: 'lydia@example.org',
      donorName,
    });
    const row = await app.db
      .selectFrom('gifts')
      .select('receiptToken')
      .where('id', '=', donationId)
      .executeTakeFirstOrThrow();
    const page = await visitor.get(`/show-up/receipts/${row.receiptToken}`);
    expect(page.status).toBe(200);
    expectWholeHead(page.text);
    expect(page.text).toContain(`Donor: ${escapeHtml(donorName)}`);
    expect(page.text).toContain(`Project: ${escapeHtml(title)}`);
  });

  it('the service planner request page (/serve/{token}): plan, place, member and position', async () => {
    const BASE = '/api/service-planner';
    const f = {
      planTitle: withPatterns('Service'),
      location: withPatterns('Hall'),
      member: withPatterns('Fay'),
      position: withPatterns('Vocals'),
    };
    const plan = await grace.client.post(`${BASE}/plans`, {
      title: f.planTitle,
      date: '2030-04-07',
      startTime: '10:00',
      location: f.location,
    });
    expect(plan.status, plan.text).toBe(201);
    const pos = await grace.client.post(`${BASE}/positions`, { name: f.position, category: 'Band' });
    expect(pos.status, pos.text).toBe(201);
    const email = `fay-${Date.now().toString(36)}@example.org`;
    const member = await grace.client.post(`${BASE}/members`, { name: f.member, email });
    expect(member.status, member.text).toBe(201);
    const assigned = await grace.client.post(`${BASE}/plans/${plan.body.id}/assignments`, {
      memberId: member.body.id,
      positionId: pos.body.id,
    });
    expect(assigned.status, assigned.text).toBe(201);
    expect((await grace.client.post(`${BASE}/plans/${plan.body.id}/send-requests`)).body.sent).toBe(1);
    const mail = () =>
      app.db.selectFrom('outboxMessages').select('text').where('toAddress', '=', email).executeTakeFirst();
    await expect.poll(async () => (await mail())?.text ?? '', { timeout: 20_000 }).toMatch(/\/serve\//);
    const token = /\/serve\/([A-Za-z0-9_-]+)/.exec((await mail())!.text!)![1]!;
    const page = await visitor.get(`/serve/${token}`);
    expect(page.status).toBe(200);
    expectWholeHead(page.text);
    for (const [field, text] of Object.entries(f)) expect(page.text, field).toContain(escapeHtml(text));
  });

  it('a landing page (/p/{slug}): the text of its blocks, and its name as the title when it has no headline', async () => {
    const name = withPatterns('Easter');
    const f = {
      headline: withPatterns('Headline'),
      subheading: withPatterns('Subheading'),
      highlightsTitle: withPatterns('Highlights'),
      point: withPatterns('Point'),
      cta: withPatterns('Go'),
      eventTitle: withPatterns('Picnic'),
      place: withPatterns('Park'),
      signupTitle: withPatterns('Join'),
      signupDescription: withPatterns('Hear from us'),
    };
    const slug = `patterns-${Date.now().toString(36)}`;
    const res = await grace.client.post('/api/landing-pages', {
      name,
      slug,
      published: true,
      content: {
        blocks: [
          { id: 'h1', type: 'hero', headline: f.headline, subheading: f.subheading },
          { id: 't1', type: 'text', html: `<p>${escapeHtml(withPatterns('Body'))}</p>` },
          { id: 'k1', type: 'highlights', title: f.highlightsTitle, items: [f.point] },
          { id: 'c1', type: 'cta', text: f.cta, link: { kind: 'url', url: 'https://example.org/' } },
          { id: 'e1', type: 'event', title: f.eventTitle, date: '2030-05-01', place: f.place },
          { id: 's1', type: 'signup', title: f.signupTitle, description: f.signupDescription },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    const page = await visitor.get(`/p/${slug}`);
    expect(page.status).toBe(200);
    expect(expectWholeHead(page.text)).toContain(escapeHtml(f.headline));
    for (const [field, text] of Object.entries(f)) expect(page.text, field).toContain(escapeHtml(text));
    // The rich text comes back from the sanitiser, which leaves an apostrophe in text as it is.
    expect(page.text).toContain(`<p>${withPatterns('Body').replace(/&/g, () => '&amp;')}</p>`);
    const noHeadline = await grace.client.put(`/api/landing-pages/${res.body.id}`, {
      name,
      slug,
      published: true,
      content: { blocks: [{ id: 'h1', type: 'hero', headline: '' }] },
    });
    expect(noHeadline.status, noHeadline.text).toBe(200);
    const named = await visitor.get(`/p/${slug}`);
    expect(expectWholeHead(named.text)).toContain(escapeHtml(name));
  });
});
