import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import sharp from 'sharp';
import {
  MAX_RENDERS_PER_CHURCH,
  MAX_WAITING_RENDERS_PER_CHURCH,
  TOO_MANY_RENDERS_MESSAGE,
  qrRenderPool,
  qrRenderSlots,
} from '@lampstand/api/server';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { projectPayload } from '../helpers/show-up.js';

const PUBLIC_URL = 'http://lampstand.test';
const SHORT = 'https://go.lampstand.test';

// A small web server on loopback serving logos (allowed for tests by qrLogoAllowLoopback).
const RED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAEklEQVR4nGP4z8DwHwyhDAYGAF3oB/nLKO1hAAAAAElFTkSuQmCC',
  'base64',
);
const EVIL_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)"><script>alert(2)</script>' +
  '<foreignObject><div>x</div></foreignObject><image href="http://10.0.0.1/x.png"/>' +
  '<circle cx="5" cy="5" r="5" fill="#4c6ef5"/></svg>';
const logoServer = http.createServer((req, res) => {
  if (req.url === '/logo.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(RED_PNG);
  if (req.url === '/logo.svg') return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(EVIL_SVG);
  if (req.url === '/page.html') return res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>');
  if (req.url === '/fake.png') return res.writeHead(200, { 'content-type': 'image/png' }).end('<p>not a png</p>');
  if (req.url === '/huge.png') {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.write(RED_PNG);
    return res.end(Buffer.alloc(2 * 1024 * 1024 + 10));
  }
  if (req.url === '/moved') return res.writeHead(302, { location: '/logo.png' }).end();
  res.writeHead(404).end();
});
await new Promise<void>((r) => logoServer.listen(0, '127.0.0.1', r));
const LOGO = `http://127.0.0.1:${(logoServer.address() as AddressInfo).port}`;
afterAll(() => new Promise<void>((r) => logoServer.close(() => r())));

const app = await startTestApp({
  publicUrl: PUBLIC_URL,
  shortUrlBase: SHORT,
  qrLogoAllowLoopback: true,
  qrScanFlushMs: 20,
});
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');

/** GET returning the raw bytes. */
async function raw(client: HttpClient, path: string, headers: Record<string, string> = {}) {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(app.url + path, { headers: { cookie, ...headers }, redirect: 'manual' });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

function decodePng(png: Buffer): string | null {
  const img = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(img.data), img.width, img.height)?.data ?? null;
}

async function waitForScans(client: HttpClient, id: number, n: number) {
  await expect
    .poll(async () => (await client.get(`/api/qr-codes/${id}`)).body.scans, { timeout: 10_000, interval: 50 })
    .toBe(n);
}

const MOBILE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

describe('QR codes API', () => {
  it('needs a session', async () => {
    const anon = new HttpClient(app.url);
    expect((await anon.get('/api/qr-codes')).status).toBe(401);
    expect((await anon.post('/api/qr-codes', { name: 'x', url: 'https://example.org' })).status).toBe(401);
    expect((await anon.get('/api/qr-codes/preview?data=hello')).status).toBe(401);
    expect((await anon.get('/api/qr-codes/1/image')).status).toBe(401);
  });

  it('creates with the defaults; the church comes from the session, not the body', async () => {
    const res = await grace.client.post('/api/qr-codes', {
      name: 'Sunday flyer',
      url: 'https://gracechurch.example.org/sunday',
      userId: hope.user.id,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      userId: grace.user.id,
      name: 'Sunday flyer',
      isShortUrl: false,
      shortCode: null,
      shortUrl: null,
      encodedUrl: 'https://gracechurch.example.org/sunday',
      foregroundColor: '#000000',
      backgroundColor: '#FFFFFF',
      cornerSquareColor: null,
      cornerDotColor: null,
      size: 300,
      errorCorrection: 'M',
      margin: 4,
      logoUrl: null,
      scans: 0,
      schedule: [],
      imageUrl: `/api/qr-codes/${res.body.id}/image`,
    });
    const list = (await grace.client.get('/api/qr-codes')).body;
    expect(list.map((c: { id: number }) => c.id)).toContain(res.body.id);
    expect((await hope.client.get('/api/qr-codes')).body).toEqual([]);
  });

  it('answers the spec messages for bad input, never a 500', async () => {
    const good = { name: 'Flyer', url: 'https://example.org' };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '' }, 'name', 'Name is required'],
      [{ name: '   ' }, 'name', 'Name is required'],
      [{ url: 'not a url' }, 'url', 'Please enter a valid URL'],
      [{ url: 'javascript:alert(1)' }, 'url', 'Please enter a valid URL'],
      [{ size: 99 }, 'size', 'Size must be between 100 and 1000'],
      [{ size: 1001 }, 'size', 'Size must be between 100 and 1000'],
      [{ size: 'big' }, 'size', 'Size must be a number'],
      [{ margin: -1 }, 'margin', 'Margin must be between 0 and 20'],
      [{ margin: 21 }, 'margin', 'Margin must be between 0 and 20'],
      [{ errorCorrection: 'X' }, 'errorCorrection', 'Error correction must be L, M, Q or H'],
      [{ foregroundColor: 'red' }, 'foregroundColor', 'Foreground color must be a hex color such as #1A2B3C'],
      [{ backgroundColor: '#FFF' }, 'backgroundColor', 'Background color must be a hex color such as #1A2B3C'],
      [{ cornerDotColor: 12 }, 'cornerDotColor', 'Corner dot color must be a hex color such as #1A2B3C'],
      [{ logoUrl: 'ftp://example.org/logo.png' }, 'logoUrl', 'Please enter a valid logo URL'],
      [
        { foregroundColor: '#BBBBBB' },
        'foregroundColor',
        'The foreground and background colors are too close for scanners to read (contrast 1.9:1, at least 3:1 needed)',
      ],
      [{ cornerSquareColor: '#EEEEEE' }, 'cornerSquareColor', 'too close for scanners to read'],
      [
        { foregroundColor: '#FFFFFF', backgroundColor: '#1A1B1E' },
        'foregroundColor',
        'Light modules on a dark background do not scan on every phone',
      ],
      [
        { schedule: [{ url: 'https://example.org/xmas', endsAt: '2030-12-26T00:00:00Z' }] },
        'schedule',
        'Scheduled destinations need a short link',
      ],
      [
        {
          isShortUrl: true,
          schedule: [
            { url: 'https://example.org/x', startsAt: '2030-12-26T00:00:00Z', endsAt: '2030-12-01T00:00:00Z' },
          ],
        },
        'schedule.0.endsAt',
        'The end must be after the start',
      ],
      [{ isShortUrl: true, schedule: [{ url: 'nope' }] }, 'schedule.0.url', 'Please enter a valid URL'],
      [{ name: 'a'.repeat(201) }, 'name', 'Name must be at most 200 characters'],
      [{ name: 'bad\u0000name' }, 'name', 'Name contains characters that are not allowed'],
      [{ schedule: 'soon' }, 'schedule', ''],
      [{ utmSource: 'x'.repeat(101) }, 'utmSource', 'UTM source must be at most 100 characters'],
    ];
    for (const [patch, path, message] of cases) {
      const res = await grace.client.post('/api/qr-codes', { ...good, ...patch });
      expect(res.status, JSON.stringify(patch)).toBe(400);
      const issue = res.body.issues.find((i: { path: string }) => i.path === path);
      expect(issue, `${JSON.stringify(patch)} -> ${JSON.stringify(res.body.issues)}`).toBeDefined();
      expect(issue.message).toContain(message);
    }
    expect((await grace.client.request('POST', '/api/qr-codes', undefined)).status).toBe(400);
    expect((await grace.client.post('/api/qr-codes', [1, 2])).status).toBe(400);
    // Light on dark, confirmed.
    const dark = await grace.client.post('/api/qr-codes', {
      ...good,
      foregroundColor: 'FFFFFF',
      backgroundColor: '1a1b1e',
      lightOnDarkConfirmed: true,
    });
    expect(dark.status).toBe(201);
    expect(dark.body).toMatchObject({ foregroundColor: '#FFFFFF', backgroundColor: '#1A1B1E' });
  });

  it("refuses a size too small for the code's modules", async () => {
    const res = await grace.client.post('/api/qr-codes', {
      name: 'Long',
      url: `https://example.org/${'a'.repeat(300)}`,
      size: 100,
      margin: 20,
    });
    expect(res.status).toBe(400);
    expect(res.body.issues[0]).toMatchObject({ path: 'size' });
    expect(res.body.message).toMatch(/^This code needs at least \d+ pixels at this margin/);
  });

  it("updates (PUT replaces), deletes, and another church's code is 404", async () => {
    const c = (
      await grace.client.post('/api/qr-codes', { name: 'Old', url: 'https://example.org/a', isShortUrl: true })
    ).body;
    expect(c.shortCode).toMatch(/^[23456789abcdefghjkmnpqrstuvwxyz]{7}$/);
    expect(c.shortUrl).toBe(`${SHORT}/s/${c.shortCode}`);
    expect(c.encodedUrl).toBe(`${SHORT}/s/${c.shortCode}?src=qr`);

    const put = await grace.client.put(`/api/qr-codes/${c.id}`, {
      name: 'New',
      url: 'https://example.org/b',
      isShortUrl: true,
      size: 500,
      foregroundColor: '1E3A8A',
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: 'New', url: 'https://example.org/b', size: 500, shortCode: c.shortCode });
    expect(put.body.margin).toBe(4); // PUT replaces: unsent fields take their defaults

    // Switched off and on again: the short code stays, so printed codes keep working.
    await grace.client.put(`/api/qr-codes/${c.id}`, { name: 'New', url: 'https://example.org/b' });
    const back = await grace.client.put(`/api/qr-codes/${c.id}`, {
      name: 'New',
      url: 'https://example.org/b',
      isShortUrl: true,
    });
    expect(back.body.shortCode).toBe(c.shortCode);

    for (const [method, path] of [
      ['GET', `/api/qr-codes/${c.id}`],
      ['PUT', `/api/qr-codes/${c.id}`],
      ['DELETE', `/api/qr-codes/${c.id}`],
      ['GET', `/api/qr-codes/${c.id}/scans`],
      ['GET', `/api/qr-codes/${c.id}/image`],
      ['GET', `/api/qr-codes/${c.id}/download`],
    ] as const) {
      const res = await hope.client.request(
        method,
        path,
        method === 'PUT' ? { name: 'Mine', url: 'https://evil.example' } : undefined,
      );
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.message).toBe('QR code not found');
    }
    expect((await grace.client.get('/api/qr-codes/abc')).status).toBe(400);
    expect((await grace.client.get('/api/qr-codes/99999999999')).status).toBe(400);

    expect((await grace.client.delete(`/api/qr-codes/${c.id}`)).body).toEqual({ id: c.id });
    expect((await grace.client.get(`/api/qr-codes/${c.id}`)).status).toBe(404);
    expect((await grace.client.delete(`/api/qr-codes/${c.id}`)).status).toBe(404);
  });
});

describe('QR images', () => {
  it('previews from query parameters (hex without #), with an ETag and a public cache, decoding to the data', async () => {
    const q =
      '/api/qr-codes/preview?data=' +
      encodeURIComponent('https://example.org/easter') +
      '&foregroundColor=1E3A8A&backgroundColor=FFF3BF&cornerSquareColor=B91C1C&cornerDotColor=047857&size=400&errorCorrection=Q&margin=2';
    const res = await raw(grace.client, q);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('private, max-age=86400');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const img = PNG.sync.read(res.body);
    expect([img.width, img.height]).toEqual([400, 400]);
    expect(decodePng(res.body)).toBe('https://example.org/easter');

    const again = await raw(grace.client, q, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);

    const other = await raw(grace.client, q.replace('margin=2', 'margin=3'));
    expect(other.headers.get('etag')).not.toBe(etag);

    const svg = await raw(grace.client, q + '&format=svg');
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('content-security-policy')).toContain("default-src 'none'");
    const text = svg.body.toString();
    expect(text).toMatch(/^<svg /);
    expect(text).toContain('fill="#1E3A8A"');
    expect(text).toContain('fill="#B91C1C" fill-rule="evenodd"');
    expect(text).toContain('fill="#047857"');
  });

  it('refuses bad preview parameters with a message', async () => {
    const cases: [string, string][] = [
      ['', 'Data is required'],
      ['data=x&size=5', 'Size must be between 100 and 1000'],
      ['data=x&margin=30', 'Margin must be between 0 and 20'],
      ['data=x&errorCorrection=Z', 'Error correction must be L, M, Q or H'],
      ['data=x&foregroundColor=zzzzzz', 'Foreground color must be a hex color such as #1A2B3C'],
      ['data=x&foregroundColor=DDDDDD', 'too close for scanners to read'],
      ['data=x&foregroundColor=FFFFFF&backgroundColor=000000', 'Light modules on a dark background'],
      ['data=x&logoUrl=nope', 'Please enter a valid logo URL'],
      ['data=x&format=gif', 'Format must be png or svg'],
    ];
    for (const [query, message] of cases) {
      const res = await grace.client.get(`/api/qr-codes/preview?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toContain(message);
    }
    const ok = await raw(
      grace.client,
      '/api/qr-codes/preview?data=x&foregroundColor=FFFFFF&backgroundColor=000000&lightOnDarkConfirmed=true',
    );
    expect(ok.status).toBe(200);
  });

  it("serves a code's image (thumbnail size grows to what scans) and its PNG and SVG downloads", async () => {
    const c = (
      await grace.client.post('/api/qr-codes', {
        name: 'Easter Banner!',
        url: `https://example.org/${'e'.repeat(120)}`,
        size: 600,
        margin: 4,
      })
    ).body;
    const thumb = await raw(grace.client, `/api/qr-codes/${c.id}/image?size=100`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('cache-control')).toBe('private, max-age=60');
    const t = PNG.sync.read(thumb.body);
    expect(t.width).toBeGreaterThan(100); // 100 px cannot hold this many modules at 2 px each
    expect(decodePng(thumb.body)).toBe(c.encodedUrl);

    const png = await raw(grace.client, `/api/qr-codes/${c.id}/download`);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('content-disposition')).toBe('attachment; filename="qr-easter-banner.png"');
    expect(PNG.sync.read(png.body).width).toBe(600);
    expect(decodePng(png.body)).toBe(c.encodedUrl);

    const svg = await raw(grace.client, `/api/qr-codes/${c.id}/download?format=svg`);
    expect(svg.headers.get('content-disposition')).toBe('attachment; filename="qr-easter-banner.svg"');
    expect(svg.body.toString()).toMatch(/^<svg [^>]*width="600" height="600"/);
    expect((await grace.client.get(`/api/qr-codes/${c.id}/download?format=pdf`)).status).toBe(400);
  });

  it('fetches logos by URL behind the guard; SVG logos are sanitized; bad logos are clear 400s', async () => {
    const withLogo = await grace.client.post('/api/qr-codes', {
      name: 'Logo',
      url: 'https://example.org/logo',
      errorCorrection: 'L',
      logoUrl: `${LOGO}/logo.png`,
    });
    expect(withLogo.status).toBe(201);
    const png = await raw(grace.client, `/api/qr-codes/${withLogo.body.id}/download`);
    expect(decodePng(png.body)).toBe('https://example.org/logo');
    const svg = (await raw(grace.client, `/api/qr-codes/${withLogo.body.id}/download?format=svg`)).body.toString();
    expect(svg).toContain('xlink:href="data:image/png;base64,');

    const redirected = await raw(
      grace.client,
      `/api/qr-codes/preview?data=x&logoUrl=${encodeURIComponent(`${LOGO}/moved`)}`,
    );
    expect(redirected.status).toBe(200);

    const svgLogo = await raw(
      grace.client,
      `/api/qr-codes/preview?format=svg&data=x&logoUrl=${encodeURIComponent(`${LOGO}/logo.svg`)}`,
    );
    expect(svgLogo.status).toBe(200);
    const embedded = /data:image\/svg\+xml;base64,([^"]+)"/.exec(svgLogo.body.toString())![1]!;
    const logoSvg = Buffer.from(embedded, 'base64').toString();
    expect(logoSvg).toContain('<circle');
    expect(logoSvg).not.toMatch(/script|onload|foreignObject|<image|10\.0\.0\.1/i);

    const bad: [string, string][] = [
      // What the server met at a fetched address is not told (a port scanner otherwise).
      [`${LOGO}/missing.png`, 'The address could not be reached'],
      [`${LOGO}/page.html`, 'The logo must be a PNG, JPEG, GIF or SVG image'],
      [`${LOGO}/fake.png`, 'The logo file is not the image it claims to be'],
      [`${LOGO}/huge.png`, 'The logo is larger than 2 MB'],
      ['http://10.0.0.1/logo.png', 'The logo URL points to a private network address'],
      ['http://169.254.169.254/latest/meta-data', 'The logo URL points to a private network address'],
      ['http://[fd00::1]/logo.png', 'The logo URL points to a private network address'],
      ['http://[::ffff:192.168.1.1]/logo.png', 'The logo URL points to a private network address'],
      ['http://[::ffff:a9fe:a9fe]/latest/meta-data', 'The logo URL points to a private network address'],
      ['http://2852039166/latest/meta-data', 'The logo URL points to a private network address'],
      ['http://no-such-host.invalid/logo.png', 'The address could not be reached'],
    ];
    for (const [logoUrl, message] of bad) {
      const res = await grace.client.post('/api/qr-codes', { name: 'Bad logo', url: 'https://example.org', logoUrl });
      expect(res.status, logoUrl).toBe(400);
      expect(res.body.message, logoUrl).toBe(message);
      expect(res.body.issues[0].path).toBe('logoUrl');
      const preview = await grace.client.get(`/api/qr-codes/preview?data=x&logoUrl=${encodeURIComponent(logoUrl)}`);
      expect(preview.status).toBe(400);
    }
  });
});

describe('logos by upload', () => {
  it("draws an uploaded logo (WebP in storage) and refuses another church's upload", async () => {
    const logo = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 30, b: 30 } } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(logo)], { type: 'image/png' }), 'logo.png');
    const cookie = [...grace.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const up = await fetch(`${app.url}/api/uploads`, { method: 'POST', headers: { cookie }, body: form });
    expect(up.status).toBe(201);
    const uploaded = (await up.json()) as { id: number; url: string; thumbnailUrl: string };

    const res = await grace.client.post('/api/qr-codes', {
      name: 'Uploaded logo',
      url: 'https://example.org/uploaded',
      logoUploadId: uploaded.id,
    });
    expect(res.status).toBe(201);
    expect(res.body.logoUpload).toEqual({ id: uploaded.id, url: uploaded.url, thumbnailUrl: uploaded.thumbnailUrl });
    const svg = (await raw(grace.client, `/api/qr-codes/${res.body.id}/download?format=svg`)).body.toString();
    expect(svg).toContain('xlink:href="data:image/png;base64,');
    const png = await raw(grace.client, `/api/qr-codes/${res.body.id}/download`);
    expect(decodePng(png.body)).toBe('https://example.org/uploaded');
    // The logo's red shows in the middle of the code.
    const img = PNG.sync.read(png.body);
    const mid = (Math.floor(img.height / 2) * img.width + Math.floor(img.width / 2)) * 4;
    // (WebP is lossy: within a few levels.)
    for (const [i, want] of [200, 30, 30].entries()) expect(Math.abs(img.data[mid + i]! - want)).toBeLessThan(4);

    const preview = await raw(grace.client, `/api/qr-codes/preview?data=x&logoUploadId=${uploaded.id}`);
    expect(preview.status).toBe(200);

    const theirs = await hope.client.post('/api/qr-codes', {
      name: 'Not mine',
      url: 'https://example.org',
      logoUploadId: uploaded.id,
    });
    expect(theirs.status).toBe(400);
    expect(theirs.body.message).toBe('That logo upload was not found');
    expect((await hope.client.get(`/api/qr-codes/preview?data=x&logoUploadId=${uploaded.id}`)).status).toBe(400);
  });
});

describe('short links and scans', () => {
  it('redirects with a 302, counts scans of the printed code and link clicks, not crawlers', async () => {
    const c = (
      await grace.client.post('/api/qr-codes', {
        name: 'Easter page',
        url: `${PUBLIC_URL}/p/easter`,
        isShortUrl: true,
        utmSource: 'flyer',
        utmMedium: 'print',
        utmCampaign: 'easter',
      })
    ).body;
    const scan = await raw(grace.client, `/s/${c.shortCode}?src=qr`, { 'user-agent': MOBILE_UA });
    expect(scan.status).toBe(302);
    expect(scan.headers.get('location')).toBe(
      `${PUBLIC_URL}/p/easter?utm_source=flyer&utm_medium=print&utm_campaign=easter&lsrc=qr.${c.id}`,
    );
    const click = await raw(grace.client, `/s/${c.shortCode}`, {
      'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36',
      referer: 'https://www.facebook.com/groups/123',
    });
    expect(click.headers.get('location')).toContain(`lsrc=link.${c.id}`);

    // Not counted: link previews, crawlers, prefetches, HEAD.
    for (const ua of [
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'WhatsApp/2.23.20.0',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'TelegramBot (like TwitterBot)',
    ]) {
      const res = await raw(grace.client, `/s/${c.shortCode}`, { 'user-agent': ua });
      expect(res.status).toBe(302);
    }
    await raw(grace.client, `/s/${c.shortCode}`, { 'user-agent': MOBILE_UA, 'sec-purpose': 'prefetch' });
    await fetch(`${app.url}/s/${c.shortCode}`, { method: 'HEAD', redirect: 'manual' });

    await waitForScans(grace.client, c.id, 2);
    const stats = (await grace.client.get(`/api/qr-codes/${c.id}/scans`)).body;
    expect(stats.total).toBe(2);
    expect(stats.days).toHaveLength(30);
    expect(stats.days[29]).toMatchObject({ date: new Date().toISOString().slice(0, 10), scans: 2, qr: 1, link: 1 });
    expect(stats.devices).toEqual({ mobile: 1, tablet: 0, desktop: 1, other: 0 });
    expect(stats.referrers).toEqual([{ host: 'www.facebook.com', scans: 1 }]);
    expect((await hope.client.get(`/api/qr-codes/${c.id}/scans`)).status).toBe(404);
  });

  it('follows a changed destination at once; other origins get the UTM parameters but no attribution', async () => {
    const c = (
      await grace.client.post('/api/qr-codes', { name: 'Dyn', url: 'https://example.org/one', isShortUrl: true })
    ).body;
    expect((await raw(grace.client, `/s/${c.shortCode}`)).headers.get('location')).toBe('https://example.org/one');
    await grace.client.put(`/api/qr-codes/${c.id}`, {
      name: 'Dyn',
      url: 'https://example.org/two?x=1',
      isShortUrl: true,
      utmCampaign: 'summer',
    });
    expect((await raw(grace.client, `/s/${c.shortCode}?src=qr`)).headers.get('location')).toBe(
      'https://example.org/two?x=1&utm_campaign=summer',
    );
    await grace.client.delete(`/api/qr-codes/${c.id}`);
    const gone = await raw(grace.client, `/s/${c.shortCode}`);
    expect(gone.status).toBe(404);
    expect(gone.body.toString()).toContain('Link not found');
    expect((await raw(grace.client, '/s/INVALID!')).status).toBe(404);
  });

  it('follows dated destinations and shows the current one and the next change', async () => {
    const now = Date.now();
    const xmasEnd = new Date(now + 3 * 86_400_000).toISOString();
    const later = new Date(now + 10 * 86_400_000).toISOString();
    const c = (
      await grace.client.post('/api/qr-codes', {
        name: 'Banner',
        url: 'https://example.org/sunday',
        isShortUrl: true,
        schedule: [
          { url: 'https://example.org/christmas', startsAt: new Date(now - 86_400_000).toISOString(), endsAt: xmasEnd },
          { url: 'https://example.org/new-year', startsAt: later, endsAt: null },
        ],
      })
    ).body;
    expect(c.currentUrl).toBe('https://example.org/christmas');
    expect(c.nextChange).toEqual({ at: xmasEnd, url: 'https://example.org/sunday' });
    expect((await raw(grace.client, `/s/${c.shortCode}`)).headers.get('location')).toBe(
      'https://example.org/christmas',
    );
    // The printed code holds the short link, whatever the schedule says.
    expect(c.encodedUrl).toBe(`${SHORT}/s/${c.shortCode}?src=qr`);
  });

  it('reads an empty start as now, as the form says', async () => {
    const until = new Date(Date.now() + 5 * 86_400_000).toISOString();
    const res = await grace.client.post('/api/qr-codes', {
      name: 'Advent banner',
      url: 'https://example.org/sunday',
      isShortUrl: true,
      schedule: [{ url: 'https://example.org/advent', startsAt: '', endsAt: until }],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.schedule).toEqual([{ url: 'https://example.org/advent', startsAt: null, endsAt: until }]);
    expect(res.body.currentUrl).toBe('https://example.org/advent');
    expect((await raw(grace.client, `/s/${res.body.shortCode}`)).headers.get('location')).toBe(
      'https://example.org/advent',
    );
    // Neither date: from now until it is removed.
    const always = await grace.client.put(`/api/qr-codes/${res.body.id}`, {
      ...res.body,
      schedule: [{ url: 'https://example.org/advent', startsAt: null, endsAt: null }],
    });
    expect(always.status, always.text).toBe(200);
    expect(always.body.currentUrl).toBe('https://example.org/advent');
    expect(always.body.nextChange).toBeNull();
  });

  it("offers the church's own landing pages and Show Up projects as destinations, with public URLs", async () => {
    const church = await registerChurch(app.url, 'Destinations Church');
    const other = await registerChurch(app.url, 'Other Church');
    expect((await new HttpClient(app.url).get('/api/qr-codes/destinations')).status).toBe(401);
    expect((await church.client.get('/api/qr-codes/destinations')).body).toEqual([
      { group: 'Landing pages', options: [] },
      { group: 'Show Up projects', options: [] },
    ]);
    await church.client.post('/api/landing-pages', { name: 'Christmas', slug: 'dest-christmas', published: true });
    await church.client.post('/api/landing-pages', { name: 'Easter', slug: 'dest-easter' });
    await other.client.post('/api/landing-pages', { name: 'Theirs', slug: 'dest-theirs', published: true });
    const project = await church.client.post(
      '/api/show-up/projects',
      projectPayload({ title: 'New roof for the hall' }),
    );
    expect(project.status, project.text).toBe(201);
    const res = await church.client.get('/api/qr-codes/destinations');
    expect(res.status).toBe(200);
    expect(res.body[0].group).toBe('Landing pages');
    expect(res.body[0].options).toEqual(
      expect.arrayContaining([
        { label: 'Christmas', url: `${PUBLIC_URL}/p/dest-christmas` },
        { label: 'Easter (draft, not published yet)', url: `${PUBLIC_URL}/p/dest-easter` },
      ]),
    );
    expect(res.body[0].options).toHaveLength(2);
    expect(res.body[1]).toEqual({
      group: 'Show Up projects',
      options: [{ label: 'New roof for the hall', url: `${PUBLIC_URL}/show-up/${project.body.id}` }],
    });
    // A code pointing at one of them is attributed to the code when scanned (our own origin).
    const code = (
      await church.client.post('/api/qr-codes', {
        name: 'Roof flyer',
        url: res.body[1].options[0].url,
        isShortUrl: true,
      })
    ).body;
    const scan = await fetch(`${app.url}/s/${code.shortCode}?src=qr`, { redirect: 'manual' });
    expect(scan.status).toBe(302);
    expect(scan.headers.get('location')).toBe(`${PUBLIC_URL}/show-up/${project.body.id}?lsrc=qr.${code.id}`);
  });

  it('answers 400 naming the URL, with the limit of the level, when the URL is too long for a code (not 500)', async () => {
    const long = `https://example.org/${'a'.repeat(1300)}`; // 1,320 characters
    const created = await grace.client.post('/api/qr-codes', {
      name: 'Too long',
      url: long,
      errorCorrection: 'M',
      logoUrl: `${LOGO}/logo.png`,
    });
    expect(created.status).toBe(400);
    expect(created.body.message).toBe('URL is too long for a QR code at error correction H (at most 1,273 characters)');
    expect(created.body.issues[0].path).toBe('url');
    // Without the logo, M holds it.
    expect((await grace.client.post('/api/qr-codes', { name: 'Fits', url: long, errorCorrection: 'M' })).status).toBe(
      201,
    );

    const preview = await grace.client.get(
      `/api/qr-codes/preview?errorCorrection=H&data=${encodeURIComponent(long)}&format=svg`,
    );
    expect(preview.status).toBe(400);
    expect(preview.body.message).toBe(
      'Data is too long for a QR code at error correction H (at most 1,273 characters)',
    );
    expect(preview.body.issues[0].path).toBe('data');

    const input = encodeURIComponent(JSON.stringify({ data: long, errorCorrection: 'H' }));
    const trpc = await grace.client.get(`/trpc/qrCodes.preview?input=${input}`);
    expect(trpc.status).toBe(400);
    expect(JSON.stringify(trpc.body)).toContain(
      'Data is too long for a QR code at error correction H (at most 1,273 characters)',
    );
  });

  it('draws PNGs in the render pool: 4 a church at once, 16 more waiting, 429 beyond; the server answers meanwhile', async () => {
    const pool = qrRenderPool();
    const preview = (church: typeof grace, i: number) =>
      church.client.get(`/api/qr-codes/preview?size=1000&data=${encodeURIComponent(`https://example.org/pool/${i}`)}`);
    const until = async (ok: () => boolean) => {
      for (const deadline = Date.now() + 10_000; !ok(); await new Promise((r) => setTimeout(r, 10)))
        if (Date.now() > deadline)
          throw new Error(
            `pool ${JSON.stringify(pool.stats())}, church ${JSON.stringify(qrRenderSlots(grace.user.id))}`,
          );
    };
    const inFlight = MAX_RENDERS_PER_CHURCH + MAX_WAITING_RENDERS_PER_CHURCH;
    // Held in the pool's queue, the renders stay in flight until resumed.
    pool.pause();
    let settled = 0;
    const held: ReturnType<typeof preview>[] = [];
    try {
      for (let i = 0; i < inFlight; i++) held.push(preview(grace, i));
      await until(() => qrRenderSlots(grace.user.id).waiting === MAX_WAITING_RENDERS_PER_CHURCH);
      // The church has 4 in the pool, not more: its other renders wait their turn.
      expect(qrRenderSlots(grace.user.id)).toEqual({ running: 4, waiting: 16 });
      expect(pool.stats().queued).toBe(MAX_RENDERS_PER_CHURCH);
      for (const p of held) void p.then(() => settled++);
      const over = await preview(grace, 99);
      expect(over.status).toBe(429);
      expect(over.body).toMatchObject({ message: TOO_MANY_RENDERS_MESSAGE, code: 'TOO_MANY_REQUESTS' });
      expect(over.headers.get('retry-after')).toBe('1');
      // Another church is not held back by this one's renders.
      held.push(preview(hope, 100));
      await until(() => pool.stats().queued === MAX_RENDERS_PER_CHURCH + 1);
      // Other requests are answered while the renders are in flight.
      expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
      expect((await grace.client.get('/api/qr-codes')).status).toBe(200);
      expect(settled).toBe(0);
    } finally {
      pool.resume();
    }
    for (const res of await Promise.all(held)) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
    }
    // The church's slots are free again.
    expect(qrRenderSlots(grace.user.id)).toEqual({ running: 0, waiting: 0 });
    expect((await preview(grace, 99)).status).toBe(200);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await new HttpClient(app.url).get('/api/openapi.json')).body;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/qr-codes',
        '/api/qr-codes/{id}',
        '/api/qr-codes/preview',
        '/api/qr-codes/{id}/image',
        '/api/qr-codes/{id}/download',
        '/api/qr-codes/{id}/scans',
        '/api/qr-codes/destinations',
      ]),
    );
    expect(doc.paths['/api/qr-codes/{id}/download'].get.responses['200'].content).toHaveProperty('image/png');
    expect(doc.paths['/api/qr-codes/preview'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['data', 'foregroundColor', 'size', 'errorCorrection', 'margin', 'logoUrl']),
    );
  });
});
