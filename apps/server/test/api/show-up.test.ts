import { describe, expect, it } from 'vitest';
import { eventsSettled } from '@lampstand/api/server';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { projectPayload, uploadImage } from '../helpers/show-up.js';

const app = await startTestApp();
await registerChurch(app.url, 'Platform'); // the first account is the admin
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
const visitor = new HttpClient(app.url);

async function createProject(client = grace.client, overrides: Record<string, unknown> = {}) {
  const res = await client.post('/api/show-up/projects', projectPayload(overrides));
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; [k: string]: unknown };
}

describe('POST /api/show-up/projects', () => {
  it('creates a project owned by the signed-in church with tags, images and a normalised website', async () => {
    const res = await grace.client.post('/api/show-up/projects', projectPayload({ title: '  New pews  ' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      userId: grace.user.id,
      title: 'New pews',
      tags: ['roof', 'hall'],
      website: 'https://grace.example.org',
      raisedAmount: 0,
      donationsCount: 0,
      status: 'active',
      targetAmount: 5000,
      latitude: 39.78,
      coverImage: '/uploads/7/large.jpg',
      coverThumbnailUrl: '/uploads/7/thumb.jpg',
      coverUploadId: null,
      images: [{ id: null, url: 'https://images.example.org/a.jpg', thumbnailUrl: null }],
      isOwner: true,
      updatesCount: 0,
    });
  });

  it('defaults the category to community and images to none', async () => {
    const { category, images, coverImage, ...rest } = projectPayload();
    void category;
    void images;
    void coverImage;
    const res = await grace.client.post('/api/show-up/projects', rest);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ category: 'community', images: [], coverImage: null });
  });

  it.each([
    [{ title: 'Roof' }, 'title', 'Title must be at least 5 characters'],
    [{ shortDescription: 'Too short' }, 'shortDescription', 'Short description must be at least 10 characters'],
    [{ shortDescription: 'x'.repeat(201) }, 'shortDescription', 'Short description must be less than 200 characters'],
    [{ description: 'Too short to explain.' }, 'description', 'Description must be at least 50 characters'],
    [{ location: 'NY' }, 'location', 'Location is required'],
    [{ latitude: 91 }, 'latitude', 'Latitude must be between -90 and 90'],
    [{ longitude: -181 }, 'longitude', 'Longitude must be between -180 and 180'],
    [{ targetAmount: 0 }, 'targetAmount', 'Target amount must be positive'],
    [{ targetAmount: -5 }, 'targetAmount', 'Target amount must be positive'],
    [{ targetAmount: 10.555 }, 'targetAmount', 'Amount can have at most 2 decimal places'],
    [{ category: '' }, 'category', 'Category is required'],
    [{ category: 'party' }, 'category', 'Please choose a category'],
    [{ organizationName: 'AB' }, 'organizationName', 'Organization name is required'],
    [{ contactEmail: 'not-an-email' }, 'contactEmail', 'Invalid email address'],
    [{ startDate: '2026-02-30' }, 'startDate', 'Invalid date format'],
    [{ startDate: '2026-05-01', endDate: '2026-04-01' }, 'endDate', 'End date must be after the start date'],
    [{ website: 'not a url' }, 'website', 'Please enter a valid URL'],
    [{ coverImage: 'javascript:alert(1)' }, 'coverImage.url', 'Please enter a valid image URL'],
    [{ title: 'Hello\u0000World' }, 'title', 'Title contains characters that are not allowed'],
  ])('refuses %j with 400 naming %s', async (overrides, field, message) => {
    const res = await grace.client.post('/api/show-up/projects', projectPayload(overrides));
    expect(res.status).toBe(400);
    expect(res.body.issues).toContainEqual({ path: field, message });
  });

  it('never answers 500 to nonsense', async () => {
    for (const body of [null, [], 'x', { targetAmount: 'lots' }, { images: 'x'.repeat(100) }, { tags: [1, 2] }]) {
      const res = await grace.client.post('/api/show-up/projects', body);
      expect(res.status).toBe(400);
    }
  });

  it('needs sign-in (401)', async () => {
    const res = await visitor.post('/api/show-up/projects', projectPayload());
    expect(res.status).toBe(401);
  });
});

describe('uploads attached to projects and updates', () => {
  it("takes the cover, project images and update images from the church's uploads (thumbnails kept)", async () => {
    const cover = await uploadImage(grace.client, app.url);
    const extra = await uploadImage(grace.client, app.url);
    const res = await grace.client.post(
      '/api/show-up/projects',
      projectPayload({
        // The addresses come from the upload, not from the request.
        coverImage: { id: cover.id, url: 'https://evil.example.org/x.jpg' },
        images: [{ id: extra.id, url: extra.url }],
      }),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      coverUploadId: cover.id,
      coverImage: cover.url,
      coverThumbnailUrl: cover.thumbnailUrl,
      images: [{ id: extra.id, url: extra.url, thumbnailUrl: extra.thumbnailUrl }],
    });
    const list = await visitor.get(`/api/show-up/projects?search=${encodeURIComponent(res.body.title)}`);
    expect(list.body.items[0].coverThumbnailUrl).toBe(cover.thumbnailUrl);
    expect((await fetch(`${app.url}${cover.thumbnailUrl}`)).status).toBe(200);

    const update = await grace.client.post(`/api/show-up/projects/${res.body.id}/updates`, {
      title: 'New photos',
      content: 'Here is how the work looks this week.',
      images: [{ id: extra.id, url: extra.url }],
    });
    expect(update.status).toBe(201);
    expect(update.body.images).toEqual([{ id: extra.id, url: extra.url, thumbnailUrl: extra.thumbnailUrl }]);
    // The update is the church's event.
    await eventsSettled(app.db);
    const [posted] = (await grace.client.get('/api/events?types=project.update_posted&limit=500')).body.events.slice(
      -1,
    );
    expect(posted).toMatchObject({
      contactId: null,
      actor: { kind: 'user', id: grace.user.id },
      data: { project: { id: res.body.id, name: res.body.title }, update: { id: update.body.id, name: 'New photos' } },
    });
  });

  it("refuses another church's upload id with 400 naming the field", async () => {
    const theirs = await uploadImage(hope.client, app.url);
    const res = await grace.client.post(
      '/api/show-up/projects',
      projectPayload({ coverImage: { id: theirs.id, url: theirs.url } }),
    );
    expect(res.status).toBe(400);
    expect(res.body.issues).toContainEqual({ path: 'coverImage', message: 'Image not found' });
    const p = await createProject();
    const upd = await grace.client.post(`/api/show-up/projects/${p.id}/updates`, {
      title: 'Borrowed photo',
      content: 'Trying to attach an image that is not ours.',
      images: [{ id: theirs.id, url: theirs.url }],
    });
    expect(upd.status).toBe(400);
    expect(upd.body.issues).toContainEqual({ path: 'images.0', message: 'Image not found' });
  });
});

describe('GET /api/show-up/projects (public)', () => {
  it('lists active projects for visitors with paging, search and category filters', async () => {
    const a = await createProject(hope.client, {
      title: 'Youth camp bus',
      category: 'youth',
      tags: ['bus'],
      location: 'Peoria',
    });
    const b = await createProject(hope.client, {
      title: 'Mission to Kenya',
      category: 'mission',
      tags: ['wells', 'africa'],
      endDate: null,
    });
    let res = await visitor.get('/api/show-up/projects?search=kenya');
    expect(res.status).toBe(200);
    expect(res.body.items.map((p: { id: number }) => p.id)).toEqual([b.id]);
    expect(res.body.items[0]).not.toHaveProperty('contactEmail');

    res = await visitor.get('/api/show-up/projects?search=africa'); // tags
    expect(res.body.items.map((p: { id: number }) => p.id)).toEqual([b.id]);
    res = await visitor.get('/api/show-up/projects?search=peoria'); // location
    expect(res.body.items.map((p: { id: number }) => p.id)).toEqual([a.id]);
    res = await visitor.get('/api/show-up/projects?search=100%25'); // LIKE wildcards are literal
    expect(res.body.total).toBe(0);

    res = await visitor.get('/api/show-up/projects?category=youth');
    expect(res.body.items.every((p: { category: string }) => p.category === 'youth')).toBe(true);
    expect(res.body.items.map((p: { id: number }) => p.id)).toContain(a.id);

    res = await visitor.get('/api/show-up/projects?pageSize=2&page=1');
    expect(res.body.items).toHaveLength(2);
    expect(res.body.total).toBeGreaterThanOrEqual(3);
    const page2 = await visitor.get('/api/show-up/projects?pageSize=2&page=2');
    expect(page2.body.items[0].id).not.toBe(res.body.items[0].id);
  });

  it("a church's new or changed project shows in the public list at once (the list cache is cleared)", async () => {
    const search = `/api/show-up/projects?search=${encodeURIComponent('Cache bell')}`;
    expect((await visitor.get(search)).body.total).toBe(0); // cached empty
    const p = await createProject(hope.client, { title: 'Cache bell tower' });
    expect((await visitor.get(search)).body.items.map((i: { id: number }) => i.id)).toEqual([p.id]);
    expect((await hope.client.patch(`/api/show-up/projects/${p.id}`, { title: 'Cache bell tower II' })).status).toBe(
      200,
    );
    expect((await visitor.get(search)).body.items[0].title).toBe('Cache bell tower II');
  });

  it('urgent means ending within 30 days, soonest first', async () => {
    const today = new Date();
    const inDays = (d: number) => new Date(today.getTime() + d * 86400000).toISOString().slice(0, 10);
    const soon = await createProject(hope.client, {
      title: 'Urgent furnace',
      startDate: inDays(-10),
      endDate: inDays(5),
    });
    const later = await createProject(hope.client, {
      title: 'Later organ',
      startDate: inDays(-10),
      endDate: inDays(90),
    });
    const res = await visitor.get('/api/show-up/projects?category=urgent');
    const ids = res.body.items.map((p: { id: number }) => p.id);
    expect(ids).toContain(soon.id);
    expect(ids).not.toContain(later.id);
  });

  it('orders by distance when lat/lng are given', async () => {
    const far = await createProject(hope.client, { title: 'Far away well', latitude: -33.86, longitude: 151.2 });
    const near = await createProject(hope.client, { title: 'Nearby pantry', latitude: 40.71, longitude: -74.0 });
    const res = await visitor.get('/api/show-up/projects?lat=40.7&lng=-74&pageSize=100');
    expect(res.status, res.text).toBe(200);
    const ids = res.body.items.map((p: { id: number }) => p.id);
    expect(ids[0]).toBe(near.id);
    expect(ids.indexOf(far.id)).toBeGreaterThan(0);
    expect(res.body.items[0].distanceKm).toBeLessThan(5);
  });

  it('refuses a bad category or coordinates with 400', async () => {
    expect((await visitor.get('/api/show-up/projects?category=party')).status).toBe(400);
    expect((await visitor.get('/api/show-up/projects?lat=200&lng=0')).status).toBe(400);
    expect((await visitor.get('/api/show-up/projects?pageSize=0')).status).toBe(400);
  });

  it('is cacheable for 5 minutes by visitors, revalidated by signed-in viewers, with an ETag', async () => {
    const res = await visitor.get('/api/show-up/projects');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const etag = res.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const again = await visitor.request('GET', '/api/show-up/projects', undefined, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    const owner = await grace.client.get('/api/show-up/projects');
    expect(owner.headers.get('cache-control')).toBe('private, no-cache');
  });
});

describe('GET /api/show-up/projects/{id} (public)', () => {
  it('shows a project to a visitor (isOwner false), 404 for an unknown id, 400 for a bad id', async () => {
    const p = await createProject();
    const res = await visitor.get(`/api/show-up/projects/${p.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: p.id, isOwner: false, contactEmail: 'office@grace.example.org' });
    expect((await hope.client.get(`/api/show-up/projects/${p.id}`)).body.isOwner).toBe(false);
    expect((await grace.client.get(`/api/show-up/projects/${p.id}`)).body.isOwner).toBe(true);
    expect((await visitor.get('/api/show-up/projects/999999')).status).toBe(404);
    expect((await visitor.get('/api/show-up/projects/abc')).status).toBe(400);
    expect((await visitor.get('/api/show-up/projects/99999999999')).status).toBe(400);
  });
});

describe('PATCH /api/show-up/projects/{id}', () => {
  it('changes only the fields sent', async () => {
    const p = await createProject();
    const res = await grace.client.patch(`/api/show-up/projects/${p.id}`, { title: 'A better title' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'A better title', targetAmount: 5000, tags: ['roof', 'hall'] });
    expect(res.body.coverImage).toBe('/uploads/7/large.jpg');
  });

  it('checks the end date against the stored start date', async () => {
    const p = await createProject();
    const res = await grace.client.patch(`/api/show-up/projects/${p.id}`, { endDate: '2026-10-01' });
    expect(res.status).toBe(400);
    expect(res.body.issues).toContainEqual({ path: 'endDate', message: 'End date must be after the start date' });
  });

  it("refuses another church's edit with 403 and changes nothing; 401 signed out; 404 unknown", async () => {
    const p = await createProject();
    const res = await hope.client.patch(`/api/show-up/projects/${p.id}`, { title: 'Hijacked title' });
    expect(res.status).toBe(403);
    expect((await visitor.get(`/api/show-up/projects/${p.id}`)).body.title).toBe(p.title);
    expect((await visitor.patch(`/api/show-up/projects/${p.id}`, { title: 'Visitor title' })).status).toBe(401);
    expect((await grace.client.patch('/api/show-up/projects/999999', { title: 'Nobody here' })).status).toBe(404);
  });

  it('validates like create', async () => {
    const p = await createProject();
    const res = await grace.client.patch(`/api/show-up/projects/${p.id}`, { shortDescription: 'short' });
    expect(res.status).toBe(400);
    expect(res.body.issues).toContainEqual({
      path: 'shortDescription',
      message: 'Short description must be at least 10 characters',
    });
  });
});

describe('updates', () => {
  it('the owner posts an update with images; visitors read it', async () => {
    const p = await createProject();
    const res = await grace.client.post(`/api/show-up/projects/${p.id}/updates`, {
      projectId: 999, // the path wins
      title: 'Halfway there',
      content: 'We raised half of the money and ordered the sheeting.',
      images: [{ url: '/uploads/3/large.jpg', thumbnailUrl: '/uploads/3/thumb.jpg' }],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      projectId: p.id,
      images: [{ id: null, url: '/uploads/3/large.jpg', thumbnailUrl: '/uploads/3/thumb.jpg' }],
    });
    const list = await visitor.get(`/api/show-up/projects/${p.id}/updates`);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect((await visitor.get(`/api/show-up/projects/${p.id}`)).body.updatesCount).toBe(1);
  });

  it('validates title and content', async () => {
    const p = await createProject();
    const res = await grace.client.post(`/api/show-up/projects/${p.id}/updates`, { title: 'Hi', content: 'short' });
    expect(res.status).toBe(400);
    expect(res.body.issues).toContainEqual({ path: 'title', message: 'Title must be at least 5 characters' });
    expect(res.body.issues).toContainEqual({ path: 'content', message: 'Content must be at least 20 characters' });
  });

  it("refuses another church's update with 403 (nothing written) and visitors with 401", async () => {
    const p = await createProject();
    const body = { title: 'Not my project', content: 'Trying to post to a project that is not mine.' };
    expect((await hope.client.post(`/api/show-up/projects/${p.id}/updates`, body)).status).toBe(403);
    expect((await visitor.post(`/api/show-up/projects/${p.id}/updates`, body)).status).toBe(401);
    expect((await visitor.get(`/api/show-up/projects/${p.id}/updates`)).body).toEqual([]);
    expect((await grace.client.post('/api/show-up/projects/999999/updates', body)).status).toBe(404);
  });
});

describe('supporters (GET /api/show-up/projects/{id}/donations)', () => {
  it('lists completed gifts only, anonymous ones without a name, never an email', async () => {
    const p = await createProject();
    // Project gifts in the ledger: gifts with a line to the project's own fund.
    const fund = await app.db.selectFrom('funds').select('id').where('projectId', '=', p.id).executeTakeFirstOrThrow();
    const base = { userId: grace.user.id, currency: 'usd' };
    const gifts = await app.db
      .insertInto('gifts')
      .values([
        {
          ...base,
          amountCents: 2500,
          donorName: 'Ruth Secret',
          donorEmail: 'ruth@example.org',
          isAnonymous: true,
          status: 'completed',
          idempotencyKey: 'k1',
          receiptToken: 't1',
          completedAt: new Date(),
        },
        {
          ...base,
          amountCents: 1000,
          donorName: 'Boaz',
          donorEmail: 'boaz@example.org',
          status: 'completed',
          idempotencyKey: 'k2',
          receiptToken: 't2',
          completedAt: new Date(),
        },
        {
          ...base,
          amountCents: 9900,
          donorName: 'Pending Person',
          status: 'pending',
          idempotencyKey: 'k3',
          receiptToken: 't3',
        },
      ])
      .returning(['id', 'amountCents'])
      .execute();
    await app.db
      .insertInto('giftLines')
      .values(gifts.map((g) => ({ userId: grace.user.id, giftId: g.id, fundId: fund.id, amountCents: g.amountCents })))
      .execute();
    const res = await visitor.get(`/api/show-up/projects/${p.id}/donations`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(res.text).not.toContain('@example.org');
    expect(res.text).not.toContain('Ruth Secret');
    expect(res.text).not.toContain('Pending Person');
    expect(res.body.map((d: { donorName: string }) => d.donorName).sort()).toEqual(['Anonymous', 'Boaz']);
  });
});

describe('GET /show-up/{id} (Open Graph)', () => {
  it('puts the title, short description and cover in the page for link previews', async () => {
    const p = await createProject(grace.client, { title: 'Food <bank> freezer' });
    const res = await fetch(`${app.url}/show-up/${p.id}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<meta property="og:title" content="Food &lt;bank&gt; freezer" />');
    expect(html).toContain(
      '<meta property="og:description" content="Fix the leaking church hall roof before winter." />',
    );
    expect(html).toMatch(/<meta property="og:image" content="http:\/\/[^"]+\/uploads\/7\/large.jpg" \/>/);
    expect(html).toContain(`/show-up/${p.id}`);
  });
});

describe('OpenAPI', () => {
  it('documents the Show Up rows', async () => {
    const res = await visitor.get('/api/openapi.json');
    for (const path of [
      '/api/show-up/projects',
      '/api/show-up/projects/{id}',
      '/api/show-up/projects/{id}/updates',
      '/api/show-up/projects/{projectId}/updates',
      '/api/show-up/projects/{id}/donations',
    ]) {
      expect(res.body.paths[path], path).toBeTruthy();
    }
  });
});
