import { describe, expect, it } from 'vitest';
import { restRoutes } from '../../src/rest/route-list.js';
import { HttpClient, registerChurch } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';
import { projectPayload } from '../helpers/show-up.js';

// An answer that depends on who asks (session cookie or API key) is never `public`;
// where a visitors' variant exists the answer varies by Cookie and Authorization.
const app = await sharedTestApp();
const grace = await registerChurch(app.url, 'Grace Church');
const visitor = new HttpClient(app.url);

const keyRes = await grace.client.post('/api/api-keys', { name: 'Website sync' });
expect(keyRes.status).toBe(201);
const withKey = new HttpClient(app.url, { authorization: `Bearer ${keyRes.body.token}` });

const project = await grace.client.post('/api/show-up/projects', projectPayload());
expect(project.status).toBe(201);
const qr = await grace.client.post('/api/qr-codes', { name: 'Flyer', url: 'https://grace.example.org/' });
expect(qr.status).toBe(201);

const varies = (res: { headers: Headers }) =>
  (res.headers.get('vary') ?? '')
    .toLowerCase()
    .split(',')
    .map((s) => s.trim());

describe('Cache-Control of answers that depend on who asks', () => {
  it("a Bearer key's GET /api/show-up/projects?ownedByMe=true is private; visitors' list is public, varying by Cookie and Authorization", async () => {
    const mine = await withKey.get('/api/show-up/projects?ownedByMe=true');
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((p: { id: number }) => p.id)).toContain(project.body.id);
    expect(mine.headers.get('cache-control')).toBe('private, no-cache');
    expect(varies(mine)).toEqual(expect.arrayContaining(['cookie', 'authorization']));

    const one = await withKey.get(`/api/show-up/projects/${project.body.id}`);
    expect(one.body.isOwner).toBe(true);
    expect(one.headers.get('cache-control')).toBe('private, no-cache');

    const anon = await visitor.get('/api/show-up/projects');
    expect(anon.headers.get('cache-control')).toBe('public, max-age=300');
    expect(varies(anon)).toEqual(expect.arrayContaining(['cookie', 'authorization']));
  });

  it("a church's QR images are private, with a cookie or a key", async () => {
    for (const client of [grace.client, withKey]) {
      const image = await client.get(`/api/qr-codes/${qr.body.id}/image?size=100`);
      expect(image.status).toBe(200);
      expect(image.headers.get('cache-control')).toBe('private, max-age=60');
      const preview = await client.get('/api/qr-codes/preview?data=hello');
      expect(preview.status).toBe(200);
      expect(preview.headers.get('cache-control')).toBe('private, max-age=86400');
    }
  });

  it('no GET of the API answers `public` to a session cookie or an API key', async () => {
    const ids: Record<string, string> = {
      '/api/qr-codes/': String(qr.body.id),
      '/api/show-up/': String(project.body.id),
    };
    const gets = restRoutes.filter((r) => r.method === 'GET');
    expect(gets.length).toBeGreaterThan(20);
    for (const route of gets) {
      const id = Object.entries(ids).find(([prefix]) => route.path.startsWith(prefix))?.[1] ?? '1';
      const path = route.path.replace(/\{\w+\}/g, id);
      for (const [who, client] of [
        ['cookie', grace.client],
        ['key', withKey],
      ] as const) {
        const res = await client.get(path);
        expect(res.headers.get('cache-control') ?? '', `${who} GET ${path} (${res.status})`).not.toMatch(/public/i);
      }
    }
    const trpc = await withKey.get(
      `/trpc/showUp.list?input=${encodeURIComponent(JSON.stringify({ ownedByMe: true }))}`,
    );
    expect(trpc.status).toBe(200);
    expect(trpc.headers.get('cache-control') ?? '').not.toMatch(/public/i);
  });
});
