import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { strFromU8, unzipSync } from 'fflate';
import { sql } from '@lampstand/db';
import { addContact, registerChurch, startTestApp, EASTER_SUNDAY_PAGE } from '../helpers/test-app.js';

// Settings → Export everything over REST: POST /api/exports queues the job, GET /api/exports/{id}
// follows it, the email carries a link that downloads the ZIP for 24 hours (then 410), another
// church's export is a 404, and a second export while one runs is a 409.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lampstand-exports-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
const PUBLIC_URL = 'http://lampstand.test';
const app = await startTestApp({ dataDir, publicUrl: PUBLIC_URL });
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');

/** The download link of the latest export email to `to`, on this test server. */
async function emailedLink(to: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const mail = await app.db
          .selectFrom('outboxMessages')
          .select(['text'])
          .where('toAddress', '=', to)
          .where('subject', '=', 'Your Lampstand export is ready')
          .orderBy('id', 'desc')
          .executeTakeFirst();
        link = /http:\/\/lampstand\.test\/api\/exports\/\d+\/download\?token=[\w-]+/.exec(mail?.text ?? '')?.[0];
        return link;
      },
      { timeout: 60_000, interval: 200 },
    )
    .toBeDefined();
  return link!.replace(PUBLIC_URL, app.url);
}

describe('POST /api/exports and GET /api/exports/{id}', () => {
  let exportId = 0;
  let link = '';

  it('makes the ZIP in the background, emails its link, and the link downloads it', async () => {
    await addContact(grace.client, { firstName: 'Ann', lastName: '=Formula' });
    expect((await grace.client.post('/api/landing-pages', EASTER_SUNDAY_PAGE)).status).toBe(201);
    const created = await grace.client.post('/api/exports');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'queued', progress: 0, expiresAt: null, downloadUrl: null });
    exportId = created.body.id;

    await expect
      .poll(async () => (await grace.client.get(`/api/exports/${exportId}`)).body.status, { timeout: 60_000 })
      .toBe('ready');
    const ready = (await grace.client.get(`/api/exports/${exportId}`)).body;
    expect(ready.progress).toBe(100);
    expect(ready.fileSize).toBeGreaterThan(0);
    const hours = (Date.parse(ready.expiresAt) - Date.parse(ready.finishedAt)) / 3_600_000;
    expect(hours).toBeCloseTo(24, 3);
    expect((await grace.client.get('/api/exports')).body.exports[0]).toMatchObject({ id: exportId, status: 'ready' });

    link = await emailedLink(grace.user.email);
    const res = await fetch(link);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const date = new Date().toISOString().slice(0, 10);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="grace-church-export-${date}.zip"`);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    for (const name of [
      'README.md',
      'manifest.json',
      'tables/contacts.csv',
      'tables/landing_pages.csv',
      'json/landing-pages.json',
    ])
      expect(Object.keys(files)).toContain(name);
    const contacts = strFromU8(files['tables/contacts.csv']!);
    expect(contacts).toContain("'=Formula");
    expect(strFromU8(files['README.md']!)).toContain('tables/contacts.csv');
    expect(Object.keys(files).some((f) => f.startsWith('tables/api_keys'))).toBe(false);

    // Signed in, the church downloads it without the token; another church cannot.
    expect((await grace.client.get(`/api/exports/${exportId}/download`)).status).toBe(200);
    expect((await hope.client.get(`/api/exports/${exportId}/download`)).status).toBe(404);
  });

  it('never serves the stored ZIP through /uploads, nor with a wrong token', async () => {
    const row = await app.db
      .selectFrom('exports')
      .select('storageKey')
      .where('id', '=', exportId)
      .executeTakeFirstOrThrow();
    expect(row.storageKey).toMatch(/^exports\//);
    expect((await fetch(`${app.url}/uploads/${row.storageKey}`)).status).toBe(404);
    const wrong = await fetch(`${app.url}/api/exports/${exportId}/download?token=${'x'.repeat(43)}`);
    expect(wrong.status).toBe(404);
    expect(((await wrong.json()) as { message: string }).message).toMatch(/not valid/);
    expect((await fetch(`${app.url}/api/exports/${exportId}/download?token=<script>`)).status).toBe(404);
    expect((await fetch(`${app.url}/api/exports/abc/download`)).status).toBe(404);
    expect((await fetch(`${app.url}/api/exports/${exportId}/download`)).status).toBe(401);
  });

  it('answers 410 with words once the 24 hours are over, and the export reads as expired', async () => {
    await sql`update exports set expires_at = now() - interval '1 minute' where id = ${exportId}`.execute(app.db);
    const res = await fetch(link);
    expect(res.status).toBe(410);
    expect(((await res.json()) as { message: string }).message).toMatch(/expired: links work for 24 hours/);
    expect((await grace.client.get(`/api/exports/${exportId}`)).body).toMatchObject({
      status: 'expired',
      downloadUrl: null,
    });
    const row = await app.db
      .selectFrom('exports')
      .select(['status', 'storageKey'])
      .where('id', '=', exportId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'expired', storageKey: null });
  });

  it("is a 404 for another church's export, and a 400 for a bad id or body", async () => {
    const other = await hope.client.get(`/api/exports/${exportId}`);
    expect(other.status).toBe(404);
    expect(other.body.message).toBe('Export not found');
    expect((await grace.client.get('/api/exports/abc')).status).toBe(400);
    const extra = await grace.client.post('/api/exports', { everything: 'please' });
    expect(extra.status).toBe(400);
    expect(await app.db.selectFrom('exports').select('id').where('userId', '=', grace.user.id).execute()).toHaveLength(
      1,
    );
  });

  it('refuses a second export while one is running, with words (409)', async () => {
    await sql`insert into exports (user_id, requested_by, status, started_at) values (${hope.user.id}, ${hope.user.id}, 'running', now())`.execute(
      app.db,
    );
    const res = await hope.client.post('/api/exports');
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/already being made/);
    expect(await app.db.selectFrom('exports').select('id').where('userId', '=', hope.user.id).execute()).toHaveLength(
      1,
    );
  });
});
