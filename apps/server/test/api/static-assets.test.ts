import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { registerChurch, startTestApp } from '../helpers/test-app.js';

// A built web app as the web build leaves it: hashed assets with .br and .gz beside them, and a map
// (an older build's) that must never be served.
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'lampstand-dist-'));
const js = `console.log(${JSON.stringify('x'.repeat(4000))});`;
const html = `<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body>${' '.repeat(2000)}</body></html>`;
fs.mkdirSync(path.join(webDist, 'assets'));
const write = (rel: string, data: string | Buffer) => fs.writeFileSync(path.join(webDist, rel), data);
write('index.html', html);
write('index.html.br', zlib.brotliCompressSync(html));
write('index.html.gz', zlib.gzipSync(html));
write('assets/index-abc123.js', js);
write('assets/index-abc123.js.br', zlib.brotliCompressSync(js));
write('assets/index-abc123.js.gz', zlib.gzipSync(js));
write('assets/index-abc123.js.map', '{"sources":["secret.ts"]}');
write('favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');

const app = await startTestApp({ webDist });
afterAll(() => fs.rmSync(webDist, { recursive: true, force: true }));

async function get(p: string, acceptEncoding: string, extra: Record<string, string> = {}) {
  // fetch decodes br and gzip itself: the headers say what was on the wire.
  const res = await fetch(app.url + p, { headers: { 'accept-encoding': acceptEncoding, ...extra } });
  return res;
}

describe('the built web app', () => {
  it('serves hashed assets pre-compressed (br, else gzip, else plain) and cached for a year', async () => {
    const br = await get('/assets/index-abc123.js', 'gzip, deflate, br');
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('content-type')).toMatch(/javascript/);
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(await br.text()).toBe(js);

    const gz = await get('/assets/index-abc123.js', 'gzip');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await gz.text()).toBe(js);

    const plain = await get('/assets/index-abc123.js', 'identity');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('serves index.html compressed with no-cache, for / and for app routes', async () => {
    for (const p of ['/', '/index.html', '/contacts', '/email-campaigns/3/edit']) {
      const res = await get(p, 'br');
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type'), p).toMatch(/text\/html/);
      expect(res.headers.get('cache-control'), p).toBe('no-cache');
      expect(res.headers.get('content-encoding'), p).toBe('br');
      expect(await res.text(), p).toBe(html);
    }
    expect((await get('/favicon.svg', 'br')).headers.get('cache-control')).toBe('no-cache');
    // Without Accept-Encoding (curl, a health probe): the plain file, for / too.
    for (const p of ['/', '/contacts']) {
      const plain = await get(p, 'identity');
      expect(plain.status, p).toBe(200);
      expect(plain.headers.get('content-encoding'), p).toBeNull();
      expect(await plain.text(), p).toBe(html);
    }
  });

  it('never serves source maps, and a missing asset is a 404 (not index.html)', async () => {
    for (const p of ['/assets/index-abc123.js.map', '/assets/other-xyz.js.map', '/assets/gone-123.js']) {
      const res = await get(p, 'br');
      expect(res.status, p).toBe(404);
      expect(await res.text(), p).not.toContain('secret.ts');
    }
  });
});

describe('API answers', () => {
  it('compress JSON above 1 KiB with brotli or gzip, and leave small ones alone', async () => {
    const { client } = await registerChurch(app.url);
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const big = await get('/api/openapi.json', 'br', { cookie });
    expect(big.status).toBe(200);
    expect(big.headers.get('content-encoding')).toBe('br');
    expect(((await big.json()) as { openapi: string }).openapi).toBe('3.1.0');
    expect((await get('/api/openapi.json', 'gzip')).headers.get('content-encoding')).toBe('gzip');

    const small = await get('/api/user', 'br', { cookie });
    expect(small.status).toBe(200);
    expect(small.headers.get('content-encoding')).toBeNull();

    const trpc = await get(
      '/trpc/auth.me,auth.me,auth.me,auth.me,auth.me,auth.me,auth.me,auth.me?batch=1&input={}',
      'br',
      {
        cookie,
      },
    );
    expect(trpc.status).toBe(200);
    expect(trpc.headers.get('content-encoding')).toBe('br');
    expect(await trpc.json()).toHaveLength(8);
  });
});
