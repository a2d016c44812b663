import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { type HttpClient, registerChurch } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';

// Service times, ChordPro import and export, the song-usage report, OpenLyrics.

const app = await sharedTestApp();
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
const g = grace.client;
const h = hope.client;
const BASE = '/api/service-planner';
const fixtures = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../packages/api/test/fixtures/chordpro',
);
const fixture = (name: string) => ({ name, content: fs.readFileSync(path.join(fixtures, name), 'utf8') });

/** The raw answer (bytes and headers) with the client's session. */
async function download(client: HttpClient, url: string, accept = '*/*') {
  const res = await fetch(app.url + url, {
    headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), accept },
  });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

function expect400(res: { status: number; body: any }, field: string, message: string) {
  expect(res.status).toBe(400);
  expect(res.body.message).toBe(message);
  expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(field);
}

const imported = await g.post(`${BASE}/songs/import`, {
  files: [fixture('amazing-grace.cho'), fixture('be-thou-my-vision.chordpro'), fixture('holy-holy-holy.pro')],
});

describe('ChordPro import', () => {
  it('makes a song of each song in the files, its fields read from the directives', async () => {
    expect(imported.status).toBe(201);
    expect(imported.body.songs.map((s: { title: string }) => s.title)).toEqual([
      'Amazing Grace',
      'Be Thou My Vision',
      'Holy, Holy, Holy',
      'Doxology',
    ]);
    const amazing = (await g.get(`${BASE}/songs/${imported.body.songs[0].id}`)).body;
    expect(amazing).toMatchObject({
      artist: 'John Newton',
      keySignature: 'G',
      tempo: 72,
      timeSignature: '3/4',
      ccliNumber: '22025',
    });
    expect(amazing.chords).toContain('A[G]mazing [G7]grace');
    expect(amazing.lyrics.split('\n')[0]).toBe('Amazing grace, how sweet the sound');
  });

  it('takes the title from the file name when there is no {title}', async () => {
    const res = await g.post(`${BASE}/songs/import`, {
      files: [{ name: 'Morning Has Broken.cho', content: '[C]Morning has [Dm]broken' }],
    });
    expect(res.status).toBe(201);
    expect(res.body.songs[0].title).toBe('Morning Has Broken');
  });

  it('refuses a file over 1 MB, a file that is not text, and no files, naming the field; nothing is kept', async () => {
    const before = (await g.get(`${BASE}/songs`)).body.length;
    expect400(
      await g.post(`${BASE}/songs/import`, { files: [{ name: 'big.cho', content: 'a'.repeat(1024 * 1024 + 1) }] }),
      'files.0.content',
      'big.cho is larger than 1 MB',
    );
    expect400(
      await g.post(`${BASE}/songs/import`, {
        files: [fixture('amazing-grace.cho'), { name: 'song.pdf', content: '%PDF-1.4\u0000\u0001binary' }],
      }),
      'files.1.content',
      'song.pdf is not a text file',
    );
    expect400(await g.post(`${BASE}/songs/import`, { files: [] }), 'files', 'Choose at least one ChordPro file');
    expect((await g.get(`${BASE}/songs`)).body.length).toBe(before);
  });
});

describe('ChordPro export', () => {
  it('sends a song as a .cho file that imports back to the same song', async () => {
    const id = imported.body.songs[1].id;
    const file = await download(g, `${BASE}/songs/${id}/chordpro`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="Be-Thou-My-Vision.cho"');
    const text = new TextDecoder().decode(file.bytes);
    const again = await g.post(`${BASE}/songs/import`, { files: [{ name: 'again.cho', content: text }] });
    const [a, b] = await Promise.all([g.get(`${BASE}/songs/${id}`), g.get(`${BASE}/songs/${again.body.songs[0].id}`)]);
    for (const f of ['title', 'artist', 'keySignature', 'chords', 'lyrics']) expect(b.body[f]).toEqual(a.body[f]);
    expect((await download(h, `${BASE}/songs/${id}/chordpro`)).status).toBe(404);
  });
});

describe('service times and the song-usage report', () => {
  it('counts a song once per service time, in the date range only, as JSON or CSV', async () => {
    const [amazing, vision] = imported.body.songs;
    const twoTimes = await g.post(`${BASE}/plans`, {
      title: 'Easter',
      date: '2031-04-13',
      startTime: '09:00',
      serviceTimes: ['11:00', '09:00'],
    });
    expect(twoTimes.status).toBe(201);
    expect(twoTimes.body.serviceTimes).toEqual(['09:00', '11:00']);
    const oneTime = await g.post(`${BASE}/plans`, { title: 'Sunday', date: '2031-04-20' });
    const outside = await g.post(`${BASE}/plans`, { title: 'Later', date: '2031-06-01' });
    const add = (planId: number, songId: number, title: string) =>
      g.post(`${BASE}/plans/${planId}/items`, { title, duration: 4, song: { songId } });
    await add(twoTimes.body.id, amazing.id, 'Opening');
    await add(twoTimes.body.id, amazing.id, 'Reprise'); // twice in one plan: still once a service
    await add(twoTimes.body.id, vision.id, 'Response');
    await add(oneTime.body.id, amazing.id, 'Opening');
    await add(outside.body.id, vision.id, 'Opening');

    const report = await g.get(`${BASE}/reports/song-usage?from=2031-04-01&to=2031-04-30`);
    expect(report.status).toBe(200);
    expect(report.body.songs).toEqual([
      {
        songId: amazing.id,
        title: 'Amazing Grace',
        artist: 'John Newton',
        ccliNumber: '22025',
        uses: 3,
        plans: 2,
        firstUsed: '2031-04-13',
        lastUsed: '2031-04-20',
      },
      expect.objectContaining({ songId: vision.id, uses: 2, plans: 1 }),
    ]);

    const csv = await download(g, `${BASE}/reports/song-usage?from=2031-04-01&to=2031-04-30`, 'text/csv');
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(new TextDecoder().decode(csv.bytes).split('\n').slice(0, 3)).toEqual([
      'Title,Artist,CCLI number,Uses,Plans,First used,Last used',
      'Amazing Grace,John Newton,22025,3,2,2031-04-13,2031-04-20',
      'Be Thou My Vision,Traditional Irish,,2,1,2031-04-13,2031-04-13',
    ]);
    const byQuery = await download(g, `${BASE}/reports/song-usage?from=2031-04-01&to=2031-04-30&format=csv`);
    expect(byQuery.headers.get('content-disposition')).toBe(
      'attachment; filename="song-usage-2031-04-01-to-2031-04-30.csv"',
    );
    expect(new TextDecoder().decode(byQuery.bytes)).toBe(new TextDecoder().decode(csv.bytes));
    // Another church sees none of it.
    expect((await h.get(`${BASE}/reports/song-usage?from=2031-04-01&to=2031-04-30`)).body.songs).toEqual([]);
  });

  it('refuses a range ending before it starts, and a bad service time', async () => {
    expect400(
      await g.get(`${BASE}/reports/song-usage?from=2031-04-30&to=2031-04-01`),
      'to',
      'To must be on or after From',
    );
    expect400(
      await g.post(`${BASE}/plans`, { title: 'x', date: '2031-01-01', serviceTimes: ['9am'] }),
      'serviceTimes.0',
      'Service times must be times as HH:MM',
    );
  });
});

describe('OpenLyrics', () => {
  it("sends a plan's songs as one OpenLyrics file each, in a zip, chords and verses kept and escaped", async () => {
    const plan = await g.post(`${BASE}/plans`, { title: 'Lessons & Carols', date: '2031-12-21' });
    for (const s of imported.body.songs.slice(0, 2))
      await g.post(`${BASE}/plans/${plan.body.id}/items`, { title: s.title, duration: 4, song: { songId: s.id } });
    const zip = await download(g, `${BASE}/plans/${plan.body.id}/openlyrics`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const files = unzipSync(zip.bytes);
    expect(Object.keys(files)).toEqual(['01-Amazing-Grace.xml', '02-Be-Thou-My-Vision.xml']);
    const xml = strFromU8(files['01-Amazing-Grace.xml']!);
    expect(xml).toContain('<titles><title>Amazing Grace</title></titles>');
    expect(xml).toContain('<ccliNo>22025</ccliNo>');
    expect(xml).toContain('<verse name="v1"><lines>A<chord name="G"/>mazing <chord name="G7"/>grace');
    expect(xml).toContain(
      '<verse name="c1"><lines>My <chord name="D/F#"/>chains are <chord name="G"/>gone, I&#39;ve been',
    );
    expect(xml).not.toContain('Repeat the last line');
    expect((await download(h, `${BASE}/plans/${plan.body.id}/openlyrics`)).status).toBe(404);
    const chordPro = await download(g, `${BASE}/plans/${plan.body.id}/chordpro`);
    expect(new TextDecoder().decode(chordPro.bytes).match(/\{title: /g)).toHaveLength(1); // Vision has {t:}
    expect(new TextDecoder().decode(chordPro.bytes)).toContain('{new_song}');
  });
});
