import { describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';

const app = await startTestApp({ publicUrl: 'http://lampstand.test' });
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');

const future = (days: number, hour = 9) => {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString();
};
const post = (o: Record<string, unknown> = {}) => ({
  content: 'Join us Sunday at 10am!',
  scheduledFor: future(3),
  platforms: ['facebook'],
  ...o,
});

describe('Social posts API', () => {
  it('creates with the defaults (scheduled), reads, replaces and deletes', async () => {
    const res = await grace.client.post('/api/social-posts', {
      content: '  Easter service at 9 and 11  ',
      scheduledFor: future(5),
      platforms: ['twitter', 'facebook', 'twitter'],
      linkUrl: '',
      imageUrl: 'https://example.org/easter.jpg',
      tags: ['#easter', 'church', 'easter'],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      content: 'Easter service at 9 and 11',
      status: 'scheduled',
      platforms: ['facebook', 'twitter'],
      linkUrl: null,
      imageUrl: 'https://example.org/easter.jpg',
      tags: ['easter', 'church'],
      postedAt: null,
      error: null,
      attempts: 0,
      userId: grace.user.id,
    });
    const id = res.body.id;
    expect((await grace.client.get(`/api/social-posts/${id}`)).body.content).toBe('Easter service at 9 and 11');

    const put = await grace.client.put(`/api/social-posts/${id}`, {
      content: 'Easter service moved',
      scheduledFor: future(6),
      platforms: ['instagram'],
      status: 'draft',
      imageUrl: '/uploads/abc.jpg',
      linkUrl: 'https://grace.example/easter',
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      content: 'Easter service moved',
      platforms: ['instagram'],
      status: 'draft',
      imageUrl: '/uploads/abc.jpg',
      linkUrl: 'https://grace.example/easter',
      tags: [],
    });
    // Every status can be set freely; posted sets postedAt, leaving it clears it.
    const posted = await grace.client.put(`/api/social-posts/${id}`, { ...post(), status: 'posted' });
    expect(posted.body.status).toBe('posted');
    expect(posted.body.postedAt).not.toBeNull();
    const failed = await grace.client.put(`/api/social-posts/${id}`, { ...post(), status: 'failed' });
    expect(failed.body).toMatchObject({ status: 'failed', postedAt: null });

    expect((await grace.client.delete(`/api/social-posts/${id}`)).body).toEqual({ id });
    expect((await grace.client.get(`/api/social-posts/${id}`)).status).toBe(404);
    expect((await grace.client.delete(`/api/social-posts/${id}`)).status).toBe(404);
  });

  it('answers every validation message of the spec, naming the field, never a 500', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [post({ content: '' }), 'content', 'Post content is required'],
      [post({ content: '   ' }), 'content', 'Post content is required'],
      [post({ content: undefined }), 'content', 'Post content is required'],
      [post({ scheduledFor: '' }), 'scheduledFor', 'Schedule date is required'],
      [post({ scheduledFor: undefined }), 'scheduledFor', 'Schedule date is required'],
      [post({ scheduledFor: 'next tuesday' }), 'scheduledFor', 'Schedule date is required'],
      [post({ platforms: [] }), 'platforms', 'Select at least one platform'],
      [post({ platforms: undefined }), 'platforms', 'Select at least one platform'],
      [post({ platforms: ['myspace'] }), 'platforms.0', 'Platforms are facebook, instagram, twitter and linkedin'],
      [post({ linkUrl: 'not a url' }), 'linkUrl', 'Link must be a valid URL'],
      [post({ linkUrl: 'javascript:alert(1)' }), 'linkUrl', 'Link must be a valid URL'],
      [post({ imageUrl: 'ftp://x/y.png' }), 'imageUrl', 'Image URL must be a valid URL'],
      [post({ status: 'sent' }), 'status', 'Status must be scheduled, posted, failed or draft'],
      [post({ content: 'x'.repeat(63207) }), 'content', 'Post content must be at most 63206 characters'],
      [post({ content: 'a\u0000b' }), 'content', 'Post content contains characters that are not allowed'],
      [post({ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }), 'tags', 'At most 20 tags'],
    ];
    for (const [body, path, message] of cases) {
      const res = await grace.client.post('/api/social-posts', body);
      expect(res.status, `${path}: ${message}`).toBe(400);
      expect(res.body.issues).toContainEqual({ path, message });
    }
    // A link of empty is "none"; one the platforms' limit is only a warning in the screen.
    const ok = await grace.client.post(
      '/api/social-posts',
      post({ linkUrl: '', content: 'x'.repeat(300), platforms: ['twitter'] }),
    );
    expect(ok.status).toBe(201);
    expect((await grace.client.put('/api/social-posts/abc', post())).status).toBe(400);
    expect((await grace.client.put('/api/social-posts/99999999999', post())).status).toBe(400);
    expect((await grace.client.put(`/api/social-posts/${ok.body.id}`, post({ content: '' }))).body.message).toBe(
      'Post content is required',
    );
  });

  it('filters by ?from=&to= (from inclusive, to exclusive), in time order', async () => {
    const church = await registerChurch(app.url, 'Range Church');
    const at = (iso: string) => church.client.post('/api/social-posts', post({ scheduledFor: iso, content: iso }));
    for (const iso of [
      '2031-03-31T23:59:59.000Z',
      '2031-04-01T00:00:00.000Z',
      '2031-04-15T12:00:00.000Z',
      '2031-05-01T00:00:00.000Z',
    ])
      await at(iso);
    const april = await church.client.get(
      '/api/social-posts?from=2031-04-01T00:00:00.000Z&to=2031-05-01T00:00:00.000Z',
    );
    expect(april.status).toBe(200);
    expect(april.body.map((p: { content: string }) => p.content)).toEqual([
      '2031-04-01T00:00:00.000Z',
      '2031-04-15T12:00:00.000Z',
    ]);
    // Offsets are honoured: 10:00+10:00 is midnight UTC.
    const fromOffset = await church.client.get(
      `/api/social-posts?from=${encodeURIComponent('2031-04-15T22:00:00+10:00')}`,
    );
    expect(fromOffset.body.map((p: { content: string }) => p.content)).toEqual([
      '2031-04-15T12:00:00.000Z',
      '2031-05-01T00:00:00.000Z',
    ]);
    expect((await church.client.get('/api/social-posts')).body).toHaveLength(4);
    const bad = await church.client.get('/api/social-posts?from=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.issues).toContainEqual({ path: 'from', message: 'From must be a date and time (ISO 8601)' });
    const backwards = await church.client.get('/api/social-posts?from=2031-05-01T00:00:00Z&to=2031-04-01T00:00:00Z');
    expect(backwards.status).toBe(400);
    expect(backwards.body.issues).toContainEqual({ path: 'to', message: 'From must be before to' });
  });

  it("keeps churches apart: another church's post is 404 and never listed", async () => {
    const mine = (await grace.client.post('/api/social-posts', post({ content: 'Grace only' }))).body;
    expect((await hope.client.get(`/api/social-posts/${mine.id}`)).status).toBe(404);
    expect((await hope.client.put(`/api/social-posts/${mine.id}`, post())).status).toBe(404);
    expect((await hope.client.delete(`/api/social-posts/${mine.id}`)).status).toBe(404);
    expect((await hope.client.get('/api/social-posts')).body.map((p: { id: number }) => p.id)).not.toContain(mine.id);
    expect((await grace.client.get(`/api/social-posts/${mine.id}`)).body.content).toBe('Grace only');
  });

  it('needs a signed-in user for every endpoint', async () => {
    const anon = new HttpClient(app.url);
    expect((await anon.get('/api/social-posts')).status).toBe(401);
    expect((await anon.post('/api/social-posts', post())).status).toBe(401);
    expect((await anon.get('/api/social-posts/1')).status).toBe(401);
    expect((await anon.put('/api/social-posts/1', post())).status).toBe(401);
    expect((await anon.delete('/api/social-posts/1')).status).toBe(401);
    expect((await anon.get('/api/social-settings')).status).toBe(401);
    expect((await anon.put('/api/social-settings', { webhookUrl: null })).status).toBe(401);
    expect((await anon.post('/api/social-settings/webhook-secret')).status).toBe(401);
    expect((await anon.post('/api/social-settings/feed-token')).status).toBe(401);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await grace.client.get('/api/openapi.json')).body;
    expect(Object.keys(doc.paths['/api/social-posts'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(doc.paths['/api/social-posts/{id}'])).toEqual(expect.arrayContaining(['get', 'put', 'delete']));
    expect(doc.paths['/api/social-settings']).toBeDefined();
  });
});

describe('Settings → Social', () => {
  it('sets the webhook, shows the secret once, regenerates it, clears the webhook', async () => {
    const church = await registerChurch(app.url, 'Webhook Church');
    const first = (await church.client.get('/api/social-settings')).body;
    expect(first).toMatchObject({ webhookUrl: null, hasWebhookSecret: false });
    expect(first.feedPath).toMatch(/^\/api\/social-posts\.ics\?token=[A-Za-z0-9_-]{43}$/);

    const bad = await church.client.put('/api/social-settings', { webhookUrl: 'hooks.zapier.com' });
    expect(bad.status).toBe(400);
    expect(bad.body.issues).toContainEqual({ path: 'webhookUrl', message: 'Webhook URL must be a valid URL' });

    const set = await church.client.put('/api/social-settings', { webhookUrl: 'https://hooks.example.org/lampstand' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ webhookUrl: 'https://hooks.example.org/lampstand', hasWebhookSecret: true });
    expect(set.body.webhookSecret).toMatch(/^[0-9a-f]{64}$/);
    // Shown once: neither reading nor changing the URL again shows it.
    expect((await church.client.get('/api/social-settings')).body.webhookSecret).toBeUndefined();
    const again = await church.client.put('/api/social-settings', { webhookUrl: 'https://hooks.example.org/v2' });
    expect(again.body.webhookSecret).toBeNull();

    const regenerated = await church.client.post('/api/social-settings/webhook-secret');
    expect(regenerated.body.webhookSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(regenerated.body.webhookSecret).not.toBe(set.body.webhookSecret);

    const cleared = await church.client.put('/api/social-settings', { webhookUrl: '' });
    expect(cleared.body).toMatchObject({ webhookUrl: null });
  });
});

describe('Calendar feed', () => {
  it('is valid iCalendar with one event per post, and a regenerated token cuts off the old address', async () => {
    const church = await registerChurch(app.url, 'Feed Church');
    const a = (
      await church.client.post(
        '/api/social-posts',
        post({
          content: 'Christmas Eve carols, 7pm; bring a friend',
          scheduledFor: '2031-12-24T08:00:00.000Z',
          platforms: ['facebook', 'instagram'],
          linkUrl: 'https://feed.example/carols',
          tags: ['christmas'],
        }),
      )
    ).body;
    const b = (
      await church.client.post(
        '/api/social-posts',
        post({
          content: 'Draft idea',
          scheduledFor: '2031-12-26T01:30:00.000Z',
          status: 'draft',
          platforms: ['twitter'],
        }),
      )
    ).body;
    await grace.client.post(
      '/api/social-posts',
      post({ content: 'Not in this feed', scheduledFor: '2031-12-25T00:00:00Z' }),
    );

    const { feedPath } = (await church.client.get('/api/social-settings')).body;
    const res = await fetch(`${app.url}${feedPath}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/calendar/);
    const text = await res.text();
    const cal = new ICAL.Component(ICAL.parse(text));
    expect(cal.name).toBe('vcalendar');
    expect(cal.getFirstPropertyValue('x-wr-calname')).toBe('Feed Church: social posts');
    const events = cal.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    expect(events.map((e) => e.summary)).toEqual([
      'Facebook, Instagram: Christmas Eve carols, 7pm; bring a friend',
      'X (Twitter): Draft idea',
    ]);
    expect(events[0]!.uid).toBe(`social-post-${a.id}@lampstand.test`);
    expect(events[0]!.startDate.toJSDate().toISOString()).toBe('2031-12-24T08:00:00.000Z');
    expect(events[0]!.description).toContain('Link: https://feed.example/carols');
    expect(events[0]!.description).toContain('Status: Scheduled');
    expect(events[1]!.uid).toBe(`social-post-${b.id}@lampstand.test`);
    expect(events[1]!.startDate.toJSDate().toISOString()).toBe('2031-12-26T01:30:00.000Z');
    expect(events[1]!.component.getFirstPropertyValue('status')).toBe('TENTATIVE');

    const renewed = (await church.client.post('/api/social-settings/feed-token')).body;
    expect(renewed.feedPath).not.toBe(feedPath);
    expect((await fetch(`${app.url}${feedPath}`)).status).toBe(404);
    expect((await fetch(`${app.url}${renewed.feedPath}`)).status).toBe(200);
    expect((await fetch(`${app.url}/api/social-posts.ics`)).status).toBe(404);
    expect((await fetch(`${app.url}/api/social-posts.ics?token=${'a'.repeat(43)}`)).status).toBe(404);
  });

  it('a CR in a post or in the church name injects no property', async () => {
    const church = await registerChurch(app.url, 'St Mark\rX-EVIL-CAL:1; Hope, Joy');
    const content = 'Picnic\rATTACH:https://evil.example/a\rX-EVIL:1; bring food, drinks';
    expect((await church.client.post('/api/social-posts', post({ content }))).status).toBe(201);
    const { feedPath } = (await church.client.get('/api/social-settings')).body;
    const text = await (await fetch(`${app.url}${feedPath}`)).text();
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const cal = new ICAL.Component(ICAL.parse(text));
    expect(cal.getAllProperties('x-evil-cal')).toHaveLength(0);
    // ical.js reads NAME and X-WR-CALNAME raw (types it does not know): the escaped text.
    expect(cal.getFirstPropertyValue('x-wr-calname')).toBe('St Mark\\nX-EVIL-CAL:1\\; Hope\\, Joy: social posts');
    const [event, ...more] = cal.getAllSubcomponents('vevent');
    expect(more).toHaveLength(0);
    expect(event!.getAllProperties('summary')).toHaveLength(1);
    expect(event!.getAllProperties('attach')).toHaveLength(0);
    expect(event!.getAllProperties('x-evil')).toHaveLength(0);
    // The summary is the first 60 characters of the post's first line: the CRs come back as newlines.
    expect(event!.getFirstPropertyValue('summary')).toBe(`Facebook: ${content.replace(/\r/g, '\n').slice(0, 60)}…`);
  });
});
