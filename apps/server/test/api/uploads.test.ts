import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getUpload } from '@lampstand/api/server';
import { type HttpClient, registerChurch, startTestApp, type TestApp } from '../helpers/test-app.js';
import { startFakeS3 } from '../helpers/fake-s3.js';

/** A photo as phones make them: JPEG with EXIF including a GPS position. */
async function photoWithGps(width = 2400, height = 1800): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneCo', Model: 'Phone 15', Copyright: 'Secret family photo' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
    })
    .toBuffer();
}

async function upload(
  client: HttpClient | null,
  baseUrl: string,
  data: Buffer,
  name = 'photo.jpg',
  type = 'image/jpeg',
) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  const headers: Record<string, string> = {};
  if (client?.cookies.size) headers.cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(`${baseUrl}/api/uploads`, { method: 'POST', headers, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('uploads on the local folder', () => {
  let app: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lampstand-uploads-'));
    app = await startTestApp({ dataDir });
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('refuses a visitor who is not signed in (401)', async () => {
    const res = await upload(null, app.url, await photoWithGps(10, 10));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });

  it('re-encodes a JPEG to WebP variants without EXIF or GPS and serves them with long cache headers', async () => {
    const { client } = await registerChurch(app.url);
    const original = await photoWithGps();
    expect((await sharp(original).metadata()).exif).toBeDefined();

    const res = await upload(client, app.url, original);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['contentType', 'height', 'id', 'thumbnailUrl', 'url', 'width']);
    expect(res.body).toMatchObject({ contentType: 'image/webp', width: 1600, height: 1200 });
    expect(res.body.url).toMatch(/^\/uploads\/u\d+\/[0-9a-f]+-large\.webp$/);
    expect(res.body.thumbnailUrl).toMatch(/^\/uploads\/u\d+\/[0-9a-f]+-thumb\.webp$/);

    const large = await fetch(app.url + res.body.url);
    expect(large.status).toBe(200);
    expect(large.headers.get('content-type')).toBe('image/webp');
    expect(large.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const largeMeta = await sharp(Buffer.from(await large.arrayBuffer())).metadata();
    expect(largeMeta).toMatchObject({ format: 'webp', width: 1600, height: 1200 });
    expect(largeMeta.exif).toBeUndefined();
    expect(largeMeta.xmp).toBeUndefined();
    expect(largeMeta.iptc).toBeUndefined();

    const thumb = await fetch(app.url + res.body.thumbnailUrl);
    const thumbMeta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect(thumbMeta).toMatchObject({ format: 'webp', width: 400, height: 300 });
    expect(thumbMeta.exif).toBeUndefined();

    // On disk, too, nothing of the GPS position remains.
    const onDisk = fs.readFileSync(path.join(dataDir, 'uploads', res.body.url.replace('/uploads/', '')));
    expect(onDisk.includes(Buffer.from('PhoneCo'))).toBe(false);
    expect(onDisk.includes(Buffer.from('Secret family photo'))).toBe(false);
  });

  it('keeps small images at their size and accepts PNG and WebP', async () => {
    const { client } = await registerChurch(app.url);
    const png = await sharp({ create: { width: 300, height: 200, channels: 4, background: '#336699' } })
      .png()
      .toBuffer();
    const a = await upload(client, app.url, png, 'logo.png', 'image/png');
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ width: 300, height: 200, contentType: 'image/webp' });
    const webp = await sharp({ create: { width: 50, height: 80, channels: 3, background: '#ffffff' } })
      .webp()
      .toBuffer();
    const b = await upload(client, app.url, webp, 'x.webp', 'image/webp');
    expect(b.status).toBe(201);
    expect(b.body).toMatchObject({ width: 50, height: 80 });
  });

  it('checks the type by content, not by name or declared type (400)', async () => {
    const { client } = await registerChurch(app.url);
    const fake = await upload(client, app.url, Buffer.from('<?php echo "hello"; ?>'.repeat(20)), 'photo.jpg');
    expect(fake.status).toBe(400);
    expect(fake.body).toMatchObject({ message: 'Only JPEG, PNG or WebP images can be uploaded.', code: 'BAD_REQUEST' });
    expect(fake.body.issues[0].path).toBe('file');
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    const g = await upload(client, app.url, gif, 'anim.png', 'image/png');
    expect(g.status).toBe(400);
    expect(g.body.message).toBe('Only JPEG, PNG or WebP images can be uploaded.');
  });

  it('refuses a truncated image with a clear 400, never a 500', async () => {
    const { client } = await registerChurch(app.url);
    const jpeg = await photoWithGps(400, 400);
    const res = await upload(client, app.url, jpeg.subarray(0, 200));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The image could not be read. Please upload a valid JPEG, PNG or WebP file.');
  });

  it('refuses a file over 10 MB (413) and a request without a file (400)', async () => {
    const { client } = await registerChurch(app.url);
    const big = Buffer.concat([await photoWithGps(10, 10), Buffer.alloc(10 * 1024 * 1024 + 10, 1)]);
    const res = await upload(client, app.url, big);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ message: 'This image is larger than 10 MB.', code: 'PAYLOAD_TOO_LARGE' });
    // A request larger than the route's limit is refused before it is read, in the same words.
    const huge = await upload(client, app.url, Buffer.alloc(11 * 1024 * 1024, 1));
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ message: 'This image is larger than 10 MB.', code: 'PAYLOAD_TOO_LARGE' });

    const form = new FormData();
    form.append('caption', 'no file here');
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const none = await fetch(`${app.url}/api/uploads`, { method: 'POST', headers: { cookie }, body: form });
    expect(none.status).toBe(400);
    expect(((await none.json()) as { message: string }).message).toBe('Choose an image to upload.');

    const json = await client.post('/api/uploads', { file: 'x' });
    expect(json.status).toBe(400);
  });

  it('getUpload finds the church’s own image and not another church’s', async () => {
    const a = await registerChurch(app.url);
    const b = await registerChurch(app.url);
    const res = await upload(a.client, app.url, await photoWithGps(20, 20));
    const mine = await getUpload(app.db, a.user.id, { id: res.body.id });
    expect(mine).toEqual(res.body);
    await expect(getUpload(app.db, b.user.id, { id: res.body.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('takes an upload with an API key, as the OpenAPI document says (201), and refuses an unknown key (401)', async () => {
    const a = await registerChurch(app.url);
    const key = await a.client.post('/api/api-keys', { name: 'Website sync' });
    expect(key.status).toBe(201);
    const form = () => {
      const f = new FormData();
      f.append('file', new Blob([new Uint8Array(Buffer.from(pngBytes))], { type: 'image/png' }), 'logo.png');
      return f;
    };
    const pngBytes = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const res = await fetch(`${app.url}/api/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.body.token}` },
      body: form(),
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: number; url: string; width: number };
    expect(body.width).toBe(30);
    expect(await getUpload(app.db, a.user.id, { id: body.id })).toMatchObject({ id: body.id, url: body.url });
    const unknown = await fetch(`${app.url}/api/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer lsk_${'x'.repeat(43)}` },
      body: form(),
    });
    expect(unknown.status).toBe(401);
  });

  it('answers 404 for a missing or unsafe file path', async () => {
    expect((await fetch(`${app.url}/uploads/u1/nothing-large.webp`)).status).toBe(404);
    expect((await fetch(`${app.url}/uploads/..%2f..%2fpackage.json`)).status).toBe(404);
  });
});

describe('uploads on an S3-compatible bucket', () => {
  const creds = { bucket: 'church-media', accessKeyId: 'AKIATEST', secretAccessKey: 'test-secret-key' };
  let s3: Awaited<ReturnType<typeof startFakeS3>>;
  beforeAll(async () => {
    s3 = await startFakeS3(creds);
  });
  afterAll(() => s3.close());

  it('stores both variants in the bucket and serves them through /uploads/', async () => {
    const app = await startTestApp({
      s3Bucket: creds.bucket,
      s3Endpoint: s3.url,
      s3Region: 'eu-west-1',
      s3AccessKeyId: creds.accessKeyId,
      s3SecretAccessKey: creds.secretAccessKey,
    });
    const { client } = await registerChurch(app.url);
    const res = await upload(client, app.url, await photoWithGps(800, 600));
    expect(res.status).toBe(201);
    const key = res.body.url.replace('/uploads/', '');
    const stored = s3.objects.get(key);
    expect(stored?.contentType).toBe('image/webp');
    expect(stored?.cacheControl).toBe('public, max-age=31536000, immutable');
    expect(s3.objects.has(res.body.thumbnailUrl.replace('/uploads/', ''))).toBe(true);
    expect((await sharp(stored!.body).metadata()).exif).toBeUndefined();

    const served = await fetch(app.url + res.body.url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(stored!.body)).toBe(true);
    expect(s3.log.some((r) => r.method === 'GET' && r.key === key)).toBe(true);
    expect((await fetch(`${app.url}/uploads/u1/missing-large.webp`)).status).toBe(404);
  });

  it('links to the bucket’s public URL when S3_PUBLIC_URL is set', async () => {
    const app = await startTestApp({
      s3Bucket: creds.bucket,
      s3Endpoint: s3.url,
      s3AccessKeyId: creds.accessKeyId,
      s3SecretAccessKey: creds.secretAccessKey,
      s3PublicUrl: 'https://cdn.example.org/media/',
    });
    const { client } = await registerChurch(app.url);
    const res = await upload(client, app.url, await photoWithGps(30, 30));
    expect(res.status).toBe(201);
    expect(res.body.url).toMatch(/^https:\/\/cdn\.example\.org\/media\/u\d+\/[0-9a-f]+-large\.webp$/);
    expect(s3.objects.has(res.body.url.replace('https://cdn.example.org/media/', ''))).toBe(true);
  });

  it('fails loudly, not silently, with wrong bucket credentials', async () => {
    const app = await startTestApp({
      s3Bucket: creds.bucket,
      s3Endpoint: s3.url,
      s3AccessKeyId: creds.accessKeyId,
      s3SecretAccessKey: 'wrong-secret',
    });
    const { client } = await registerChurch(app.url);
    const res = await upload(client, app.url, await photoWithGps(30, 30));
    expect(res.status).toBe(500);
    expect(res.body.message).toBe('Internal server error');
    expect(await app.db.selectFrom('uploads').select('id').execute()).toEqual([]);
  });
});
