import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { moveIn, moveInFixture } from '../helpers/move-in.js';
import { registerChurch, startTestApp, type HttpClient } from '../helpers/test-app.js';

// Moving a whole church over HTTP: Grace's "Export everything" ZIP, downloaded through
// /api/exports, goes to POST /api/imports of a newly registered church, is previewed per table,
// confirmed, and restored by the background job; the new church's people, gifts and serving
// positions read through the API are Grace's. Bad ZIPs and a church that is not new are refused
// with words and write nothing; another church's import is a 404.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lampstand-move-church-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
const app = await startTestApp({ dataDir });
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
const { upload, committed, contacts, exportZip } = moveIn(app.url);

const PLANNER = '/api/service-planner';
let zip: Buffer = Buffer.alloc(0);

/** What the API shows of a church, without the ids (the new church's rows have new ones). */
async function churchAsSeen(client: HttpClient) {
  const withIds = await contacts(client);
  const name = (id: number | null) => {
    const c = withIds.find((x) => x.id === id);
    return c ? `${c.firstName} ${c.lastName}` : null;
  };
  // Ids differ, the church's too.
  const people = withIds.map((x) => {
    const { id: _id, userId: _church, ...c } = x as typeof x & { userId?: number };
    return c;
  });
  const gifts = (await client.get('/api/giving/gifts?pageSize=200')).body.gifts.map(
    ({ id: _id, contactId, lines, ...g }: { id: number; contactId: number | null; lines: { fundId: number }[] }) => ({
      ...g,
      contact: name(contactId),
      lines: lines.map(({ fundId: _f, ...l }) => l),
    }),
  );
  const members = (await client.get(`${PLANNER}/members`)).body.map(
    (m: { name: string; positions: { name: string }[] }) => ({
      name: m.name,
      positions: m.positions.map((p) => p.name).sort(),
    }),
  );
  return { people, gifts, members };
}

const importsOf = async (tenant: number) =>
  (await app.db.selectFrom('imports').select('id').where('userId', '=', tenant).execute()).length;

describe('POST /api/imports with a Lampstand export', () => {
  let importId = 0;
  const next = registerChurch(app.url, 'Grace Church (new home)');

  it("downloads Grace's export: people and gifts moved in from Planning Center, a singer in two positions", async () => {
    expect((await grace.client.put('/api/settings', { defaultCountryCode: '+1' })).status).toBe(200);
    for (const file of ['planning-center-people.csv', 'planning-center-donations.csv']) {
      const res = await upload(grace.client, moveInFixture(file), file);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      await committed(grace.client, res.body.id);
    }
    const positionIds: number[] = [];
    for (const name of ['Vocals', 'Keys'])
      positionIds.push((await grace.client.post(`${PLANNER}/positions`, { name, category: 'Band' })).body.id);
    expect((await grace.client.post(`${PLANNER}/members`, { name: 'Zoë Singer', positionIds })).status).toBe(201);
    zip = await exportZip(grace.client);
    expect(zip.subarray(0, 2).toString()).toBe('PK');
  });

  it('previews the export in a new church: the church it came from and the rows of each table', async () => {
    const { client } = await next;
    const res = await upload(client, zip, 'grace-church-export.zip');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    importId = res.body.id;
    expect(res.body).toMatchObject({ kind: 'church', sourceLabel: 'Lampstand export', status: 'previewed' });
    const church = res.body.preview.church;
    expect(church.name).toBe('Grace Church');
    const rows = (table: string) => church.tables.find((t: { name: string }) => t.name === table)?.rows;
    expect(rows('contacts')).toBe((await contacts(grace.client)).length);
    expect(rows('gifts')).toBe((await grace.client.get('/api/giving/gifts?pageSize=200')).body.gifts.length);
    expect(rows('team_member_positions')).toBe(2);
    expect(church.tables.find((t: { name: string }) => t.name === 'contacts').label).toMatch(/contact/i);
    expect(res.body.preview.rows).toBe(church.tables.reduce((s: number, t: { rows: number }) => s + t.rows, 0));
    // Nothing is written before Confirm.
    expect(await contacts(client)).toEqual([]);
    expect((await client.get(`/api/imports/${importId}`)).body.status).toBe('previewed');
  });

  it("is another church's business: 404 to read or confirm it", async () => {
    expect((await hope.client.get(`/api/imports/${importId}`)).status).toBe(404);
    expect((await hope.client.post(`/api/imports/${importId}/commit`, { policy: {} })).status).toBe(404);
    expect(await contacts(hope.client)).toEqual([]);
  });

  it('restores it on Confirm: the same people, gifts and serving positions as the old church', async () => {
    const { client } = await next;
    const done = await committed(client, importId);
    expect(done.report.church.tables.find((t: { name: string }) => t.name === 'contacts').rows).toBeGreaterThan(0);
    const before = await churchAsSeen(grace.client);
    const after = await churchAsSeen(client);
    expect(before.people.length).toBeGreaterThan(0);
    expect(before.gifts.length).toBeGreaterThan(0);
    expect(after).toEqual(before);
    expect(after.members).toEqual([{ name: 'Zoë Singer', positions: ['Keys', 'Vocals'] }]);
    // Gifts follow their donors: the contact each names has the same name in the new church.
    expect(after.gifts.filter((g: { contact: string | null }) => g.contact !== null).length).toBeGreaterThan(0);
  });
});

describe('bad input', () => {
  it('refuses a ZIP that is not an export, a broken ZIP and one over 50 MB, with words, writing nothing', async () => {
    const { client, user } = await registerChurch(app.url, 'Empty Church');
    const other = await upload(client, Buffer.from(zipSync({ 'notes.txt': strToU8('hello') })), 'notes.zip');
    expect(other.status).toBe(400);
    expect(other.body.message).toBe(
      'This file is not a Lampstand export (a ZIP with manifest.json and README.md). manifest.json is missing.',
    );
    const broken = await upload(client, zip.subarray(0, Math.floor(zip.length / 2)), 'broken.zip');
    expect(broken.status).toBe(400);
    expect(broken.body.message).toBe('This file is not a Lampstand export (a ZIP with manifest.json and README.md).');
    const big = Buffer.alloc(51 * 1024 * 1024);
    zip.copy(big, 0, 0, 64);
    const large = await upload(client, big, 'large.zip');
    expect(large.status).toBe(413);
    expect(large.body.message).toMatch(/50 MB/);
    expect(await importsOf(user.id)).toBe(0);
  });

  it('refuses a church that is not new with 409, naming what it has already', async () => {
    const before = await importsOf(grace.user.id);
    const old = await upload(grace.client, zip, 'grace.zip');
    expect(old.status).toBe(409);
    expect(old.body.message).toMatch(/^This church already has contacts \(and data in \d+ more tables\): /);
    expect(old.body.message).toContain('a Lampstand export moves only into a new church');
    // A church with nothing but one serving position is not new either.
    const started = await registerChurch(app.url, 'Started Church');
    expect((await started.client.post(`${PLANNER}/positions`, { name: 'Sound' })).status).toBe(201);
    const res = await upload(started.client, zip, 'grace.zip');
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/^This church already has team positions: /);
    expect(await importsOf(grace.user.id)).toBe(before);
    expect(await importsOf(started.user.id)).toBe(0);
  });
});
