import { describe, expect, it } from 'vitest';
import { eventsSettled } from '@lampstand/api/server';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';

const PUBLIC_URL = 'http://lampstand.test';
const app = await startTestApp({ publicUrl: PUBLIC_URL });
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
const g = grace.client;
const h = hope.client;
const BASE = '/api/service-planner';

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

async function plan(client: HttpClient, o: Record<string, unknown> = {}) {
  const res = await client.post(`${BASE}/plans`, {
    title: 'Sunday Service',
    date: '2030-01-06',
    startTime: '10:00',
    endTime: '11:00',
    ...o,
  });
  expect(res.status).toBe(201);
  return res.body;
}

/** Polls until `read` gives at least `n` rows (the engine sends requests in a job), at most 15 s. */
async function atLeast<T>(n: number, read: () => Promise<T[]>): Promise<T[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const rows = await read();
    if (rows.length >= n || Date.now() > deadline) return rows;
    await new Promise((r) => setTimeout(r, 50));
  }
}

function expect400(res: { status: number; body: any }, field: string, message: string) {
  expect(res.status).toBe(400);
  expect(res.body.message).toBe(message);
  expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(field);
}

describe('access', () => {
  it('needs a signed-in church (401)', async () => {
    const anon = new HttpClient(app.url);
    for (const path of ['/plans', '/songs', '/members', '/item-types', '/positions']) {
      expect((await anon.get(`${BASE}${path}`)).status).toBe(401);
    }
    expect((await anon.post(`${BASE}/plans`, { title: 'x', date: '2030-01-01' })).status).toBe(401);
  });

  it('lists every planner route in the OpenAPI document', async () => {
    const doc = (await g.get('/api/openapi.json')).body;
    for (const p of [
      '/api/service-planner/plans',
      '/api/service-planner/songs',
      '/api/service-planner/members',
      '/api/service-planner/plans/{planId}/items/order',
      '/api/service-planner/requests/{token}/accept',
    ]) {
      expect(doc.paths[p], p).toBeTruthy();
    }
  });
  it('answers bad input with a 400, never a 500', async () => {
    const p = await plan(g);
    const item = (await g.post(`${BASE}/plans/${p.id}/items`, { title: 'X', duration: 1 })).body;
    const junk: unknown[] = [
      null,
      'text',
      42,
      [],
      { title: { nested: true } },
      { title: 'x'.repeat(100_000) },
      { date: 'nope' },
    ];
    const targets: [string, string][] = [
      ['POST', `${BASE}/plans`],
      ['PATCH', `${BASE}/plans/${p.id}`],
      ['POST', `${BASE}/plans/${p.id}/items`],
      ['PATCH', `${BASE}/items/${item.id}`],
      ['PUT', `${BASE}/plans/${p.id}/items/order`],
      ['POST', `${BASE}/songs`],
      ['POST', `${BASE}/members`],
      ['POST', `${BASE}/positions`],
      ['POST', `${BASE}/item-types`],
      ['POST', `${BASE}/plans/${p.id}/assignments`],
      ['POST', `${BASE}/plans/${p.id}/duplicate`],
      ['POST', `${BASE}/plans/${p.id}/announce`],
    ];
    for (const [method, path] of targets) {
      for (const body of junk) {
        const res = await g.request(method, path, body);
        expect(res.status, `${method} ${path} ${JSON.stringify(body)?.slice(0, 40)}`).toBeLessThan(500);
      }
    }
    for (const path of [
      '/plans/2147483648',
      '/plans/-1',
      '/songs/1.5',
      '/members/0',
      '/plans?when=past&when=upcoming',
    ]) {
      expect((await g.get(`${BASE}${path}`)).status, path).toBe(400);
    }
  });
});

describe('item types', () => {
  it('seeds the eight defaults once on first use, even under concurrent first requests', async () => {
    const late = await registerChurch(app.url, 'Existing Church');
    // A church that existed before: no rows until the planner is used.
    const before = await app.db
      .selectFrom('serviceItemTypes')
      .select('id')
      .where('userId', '=', late.user.id)
      .execute();
    expect(before).toHaveLength(0);
    const all = await Promise.all([1, 2, 3, 4, 5].map(() => late.client.get(`${BASE}/item-types`)));
    for (const r of all) expect(r.status).toBe(200);
    const rows = await app.db
      .selectFrom('serviceItemTypes')
      .select('name')
      .where('userId', '=', late.user.id)
      .execute();
    expect(rows.map((r) => r.name).sort()).toEqual(
      ['Announcement', 'Benediction', 'Offering', 'Prayer', 'Scripture', 'Sermon', 'Song', 'Welcome'].sort(),
    );
    expect(all[0]!.body[0]).toMatchObject({ name: 'Welcome', isDefault: true, color: 'teal' });
  });

  it('creates, updates (partial) and deletes a church type; names are unique per church', async () => {
    const created = await g.post(`${BASE}/item-types`, { name: 'Baptism', color: 'blue', icon: 'heart' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Baptism', color: 'blue', icon: 'heart', isDefault: false });
    expect((await g.post(`${BASE}/item-types`, { name: 'Baptism' })).status).toBe(409);
    expect400(await g.post(`${BASE}/item-types`, { name: ' ' }), 'name', 'Name is required');
    expect400(
      await g.post(`${BASE}/item-types`, { name: 'X', color: 'plaid' }),
      'color',
      'Colour must be one of the listed colours',
    );
    const updated = await g.patch(`${BASE}/item-types/${created.body.id}`, { color: 'green' });
    expect(updated.body).toMatchObject({ name: 'Baptism', color: 'green', icon: 'heart' });
    // Partial: a new name alone keeps the colour and icon (no defaults fill unsent fields).
    const renamed = await g.patch(`${BASE}/item-types/${created.body.id}`, { name: 'Baptisms' });
    expect(renamed.body).toMatchObject({ name: 'Baptisms', color: 'green', icon: 'heart' });
    expect((await h.patch(`${BASE}/item-types/${created.body.id}`, { color: 'red' })).status).toBe(404);
    expect((await h.delete(`${BASE}/item-types/${created.body.id}`)).status).toBe(404);
    expect((await g.delete(`${BASE}/item-types/${created.body.id}`)).status).toBe(200);
    expect((await g.delete(`${BASE}/item-types/${created.body.id}`)).status).toBe(404);
  });
});

describe('plans', () => {
  it('validates title, date, times (HH:MM, end after start) and status', async () => {
    expect400(await g.post(`${BASE}/plans`, { title: '', date: '2030-01-06' }), 'title', 'Title is required');
    expect400(await g.post(`${BASE}/plans`, { title: 'x', date: '2030-02-30' }), 'date', 'Date must be a valid date');
    expect400(
      await g.post(`${BASE}/plans`, { title: 'x', date: '2030-01-06', startTime: '9am' }),
      'startTime',
      'Start time must be a time as HH:MM',
    );
    expect400(
      await g.post(`${BASE}/plans`, { title: 'x', date: '2030-01-06', startTime: '10:00', endTime: '09:30' }),
      'endTime',
      'End time must be after the start time',
    );
    expect400(
      await g.post(`${BASE}/plans`, { title: 'x', date: '2030-01-06', status: 'archived' }),
      'status',
      'Status must be draft, published or completed',
    );
    expect((await g.post(`${BASE}/plans`, { title: 'x'.repeat(201), date: '2030-01-06' })).body.message).toBe(
      'Title must be at most 200 characters',
    );
    expect((await g.post(`${BASE}/plans`, { title: 'bad\u0000', date: '2030-01-06' })).status).toBe(400);
  });

  it('creates, reads, updates one field, lists upcoming and past, and deletes', async () => {
    const p = await plan(g, { theme: 'Hope', location: 'Main hall' });
    expect(p).toMatchObject({ status: 'draft', theme: 'Hope', items: [], team: { confirmed: 0, total: 0 } });
    const past = await plan(g, { title: 'Last Sunday', date: isoDay(-7) });

    const patched = await g.patch(`${BASE}/plans/${p.id}`, { notes: 'Bring candles' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ notes: 'Bring candles', theme: 'Hope', title: 'Sunday Service' });
    // End before the start already saved: checked on the merged plan.
    expect((await g.patch(`${BASE}/plans/${p.id}`, { endTime: '09:00' })).body.message).toBe(
      'End time must be after the start time',
    );

    const upcoming = (await g.get(`${BASE}/plans?when=upcoming`)).body.map((x: { id: number }) => x.id);
    expect(upcoming).toContain(p.id);
    expect(upcoming).not.toContain(past.id);
    expect((await g.get(`${BASE}/plans?when=past`)).body.map((x: { id: number }) => x.id)).toContain(past.id);
    expect((await g.get(`${BASE}/plans?when=someday`)).status).toBe(400);
    expect((await h.get(`${BASE}/plans`)).body.map((x: { id: number }) => x.id)).not.toContain(p.id);

    expect((await h.get(`${BASE}/plans/${p.id}`)).status).toBe(404);
    expect((await h.patch(`${BASE}/plans/${p.id}`, { title: 'Mine' })).status).toBe(404);
    expect((await h.delete(`${BASE}/plans/${p.id}`)).status).toBe(404);
    expect((await g.get(`${BASE}/plans/abc`)).status).toBe(400);
    expect((await g.get(`${BASE}/plans/99999999999`)).status).toBe(400);

    expect((await g.delete(`${BASE}/plans/${p.id}`)).status).toBe(200);
    expect((await g.get(`${BASE}/plans/${p.id}`)).status).toBe(404);
  });

  it('duplicates a plan with its items and song keys to a new date as a draft', async () => {
    const p = await plan(g, { status: 'published' });
    const song = (await g.post(`${BASE}/songs`, { title: 'Dup Song', keySignature: 'G' })).body;
    await g.post(`${BASE}/plans/${p.id}/items`, { title: 'Opening', duration: 5 });
    await g.post(`${BASE}/plans/${p.id}/items`, {
      title: 'Song',
      duration: 4,
      song: { songId: song.id, keySignature: 'A' },
    });
    const copy = await g.post(`${BASE}/plans/${p.id}/duplicate`, { date: '2030-01-13' });
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ date: '2030-01-13', status: 'draft', title: 'Sunday Service' });
    expect(copy.body.items.map((i: { title: string }) => i.title)).toEqual(['Opening', 'Song']);
    expect(copy.body.items[1].song).toMatchObject({ songId: song.id, keySignature: 'A' });
    expect((await h.post(`${BASE}/plans/${p.id}/duplicate`, { date: '2030-01-13' })).status).toBe(404);
  });
});

describe('items', () => {
  it('adds items at the end with start times computed from the plan start, and the total against the end', async () => {
    const p = await plan(g, { startTime: '09:30', endTime: '09:45' });
    const types = (await g.get(`${BASE}/item-types`)).body as { id: number; name: string }[];
    const welcome = types.find((t) => t.name === 'Welcome')!;
    const a = await g.post(`${BASE}/plans/${p.id}/items`, {
      title: 'Welcome',
      duration: 5,
      serviceItemTypeId: welcome.id,
    });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ position: 1, startTime: '09:30', type: { name: 'Welcome', color: 'teal' } });
    const b = await g.post(`${BASE}/plans/${p.id}/items`, { title: 'Worship', duration: 12, isRehearsalNeeded: true });
    expect(b.body).toMatchObject({ position: 2, startTime: '09:35', isRehearsalNeeded: true });
    const detail = (await g.get(`${BASE}/plans/${p.id}`)).body;
    expect(detail.times).toEqual({ totalMinutes: 17, endsAt: '09:47', plannedMinutes: 15, overBy: 2 });
    expect(detail.itemCount).toBe(2);

    expect400(
      await g.post(`${BASE}/plans/${p.id}/items`, { title: 'Long', duration: 601 }),
      'duration',
      'Duration must be between 0 and 600 minutes',
    );
    expect400(
      await g.post(`${BASE}/plans/${p.id}/items`, { title: 'Neg', duration: -1 }),
      'duration',
      'Duration must be between 0 and 600 minutes',
    );
    expect400(await g.post(`${BASE}/plans/${p.id}/items`, { duration: 5 }), 'title', 'Title is required');
    expect((await h.post(`${BASE}/plans/${p.id}/items`, { title: 'Sneaky', duration: 1 })).status).toBe(404);
    const hopeType = (await h.get(`${BASE}/item-types`)).body[0];
    expect(
      (await g.post(`${BASE}/plans/${p.id}/items`, { title: 'X', duration: 1, serviceItemTypeId: hopeType.id })).body
        .message,
    ).toBe('Item type not found');

    // Partial update: one field.
    const upd = await g.patch(`${BASE}/items/${b.body.id}`, { duration: 10 });
    expect(upd.body).toMatchObject({ title: 'Worship', duration: 10, isRehearsalNeeded: true });
    expect((await h.patch(`${BASE}/items/${b.body.id}`, { duration: 1 })).status).toBe(404);
    expect((await h.delete(`${BASE}/items/${b.body.id}`)).status).toBe(404);
    expect((await g.delete(`${BASE}/items/${a.body.id}`)).status).toBe(200);
    const after = (await g.get(`${BASE}/plans/${p.id}`)).body;
    expect(after.items.map((i: { title: string; startTime: string }) => [i.title, i.startTime])).toEqual([
      ['Worship', '09:30'],
    ]);
  });

  it('reorders with the whole order, and refuses a partial or foreign order', async () => {
    const p = await plan(g);
    const ids: number[] = [];
    for (const [title, duration] of [
      ['One', 5],
      ['Two', 10],
      ['Three', 15],
    ] as const)
      ids.push((await g.post(`${BASE}/plans/${p.id}/items`, { title, duration })).body.id);
    const res = await g.put(`${BASE}/plans/${p.id}/items/order`, { itemIds: [ids[2], ids[0], ids[1]] });
    expect(res.status).toBe(200);
    expect(res.body.map((i: { title: string; startTime: string }) => [i.title, i.startTime])).toEqual([
      ['Three', '10:00'],
      ['One', '10:15'],
      ['Two', '10:20'],
    ]);
    // The stored column follows too (for those who read the table).
    const stored = await app.db
      .selectFrom('serviceItems')
      .select(['title', 'startTime'])
      .where('servicePlanId', '=', p.id)
      .orderBy('position')
      .execute();
    expect(stored.map((r) => [r.title, r.startTime])).toEqual([
      ['Three', '10:00'],
      ['One', '10:15'],
      ['Two', '10:20'],
    ]);
    await g.patch(`${BASE}/plans/${p.id}`, { startTime: '23:50', endTime: null });
    const moved = await app.db
      .selectFrom('serviceItems')
      .select('startTime')
      .where('servicePlanId', '=', p.id)
      .orderBy('position')
      .execute();
    expect(moved.map((r) => r.startTime)).toEqual(['23:50', '00:05', '00:10']);
    await g.patch(`${BASE}/plans/${p.id}`, { startTime: '10:00', endTime: '11:00' });
    const bad = await g.put(`${BASE}/plans/${p.id}/items/order`, { itemIds: [ids[0], ids[1]] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('The new order must list every item of the plan exactly once');
    expect((await g.put(`${BASE}/plans/${p.id}/items/order`, { itemIds: [ids[0], ids[0], ids[1]] })).body.message).toBe(
      'Each item must appear once',
    );
    const other = await plan(g);
    const foreign = (await g.post(`${BASE}/plans/${other.id}/items`, { title: 'Other', duration: 1 })).body.id;
    expect((await g.put(`${BASE}/plans/${p.id}/items/order`, { itemIds: [ids[0], ids[1], foreign] })).status).toBe(400);
    expect((await h.put(`${BASE}/plans/${p.id}/items/order`, { itemIds: ids })).status).toBe(404);
    expect((await g.put(`${BASE}/plans/${p.id}/items/order`, { itemIds: 'all' })).status).toBe(400);
  });

  it('attaches a song with its key, arrangement and notes; refuses bad keys; null removes it', async () => {
    const p = await plan(g);
    const song = (await g.post(`${BASE}/songs`, { title: 'Item Song', keySignature: 'G', chords: '[G]Hi' })).body;
    const item = await g.post(`${BASE}/plans/${p.id}/items`, {
      title: 'Song',
      duration: 4,
      song: { songId: song.id, keySignature: 'Bb', arrangement: 'V C V C B C', notes: 'Capo 1' },
    });
    expect(item.body.song).toMatchObject({
      songId: song.id,
      title: 'Item Song',
      keySignature: 'Bb',
      songKey: 'G',
      arrangement: 'V C V C B C',
      notes: 'Capo 1',
      chords: '[G]Hi',
    });
    expect400(
      await g.patch(`${BASE}/items/${item.body.id}`, { song: { songId: song.id, keySignature: 'H' } }),
      'song.keySignature',
      'Key must be a valid key, e.g. G, Bb or F#m',
    );
    const hopeSong = (await h.post(`${BASE}/songs`, { title: 'Hope Song' })).body;
    expect((await g.patch(`${BASE}/items/${item.body.id}`, { song: { songId: hopeSong.id } })).body.message).toBe(
      'Song not found',
    );
    const removed = await g.patch(`${BASE}/items/${item.body.id}`, { song: null });
    expect(removed.body.song).toBeNull();
  });
});

describe('songs', () => {
  it('validates key, tempo, time signature, CCLI number and URL', async () => {
    expect400(await g.post(`${BASE}/songs`, { title: '' }), 'title', 'Title is required');
    expect400(
      await g.post(`${BASE}/songs`, { title: 'x', keySignature: 'E#' }),
      'keySignature',
      'Key must be a valid key, e.g. G, Bb or F#m',
    );
    expect400(await g.post(`${BASE}/songs`, { title: 'x', tempo: 301 }), 'tempo', 'Tempo must be between 20 and 300');
    expect400(await g.post(`${BASE}/songs`, { title: 'x', tempo: 19 }), 'tempo', 'Tempo must be between 20 and 300');
    expect400(
      await g.post(`${BASE}/songs`, { title: 'x', timeSignature: '4-4' }),
      'timeSignature',
      'Time signature must look like 4/4 or 6/8',
    );
    expect400(
      await g.post(`${BASE}/songs`, { title: 'x', ccliNumber: 'abc' }),
      'ccliNumber',
      'CCLI number must be digits only',
    );
    expect400(
      await g.post(`${BASE}/songs`, { title: 'x', audioUrl: 'javascript:alert(1)' }),
      'audioUrl',
      'Audio URL must be a valid URL',
    );
    expect((await g.post(`${BASE}/songs`, { title: 'x', tags: Array(31).fill('t') })).status).toBe(400);
  });

  it('creates, searches by title, artist and tag, updates one field, and deletes', async () => {
    const a = await g.post(`${BASE}/songs`, {
      title: 'Amazing Grace',
      artist: 'John Newton',
      keySignature: 'G',
      tempo: 72,
      timeSignature: '3/4',
      ccliNumber: '22025',
      tags: ['hymn', 'classic'],
      chords: '{key: G}\n[G]Amazing [D/F#]grace',
    });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      title: 'Amazing Grace',
      tempo: 72,
      tags: ['hymn', 'classic'],
      lastUsed: null,
      usesLast90Days: 0,
    });
    await g.post(`${BASE}/songs`, { title: 'Cornerstone', artist: 'Hillsong', tags: ['modern'] });
    const titles = async (q: string) =>
      (await g.get(`${BASE}/songs?${q}`)).body.map((s: { title: string }) => s.title) as string[];
    expect(await titles('search=amazing')).toEqual(['Amazing Grace']);
    expect(await titles('search=hillsong')).toEqual(['Cornerstone']);
    expect(await titles('search=HYMN')).toEqual(['Amazing Grace']);
    expect(await titles('tag=modern')).toEqual(['Cornerstone']);
    expect(await titles('search=100%')).toEqual([]);
    expect((await h.get(`${BASE}/songs`)).body.map((s: { title: string }) => s.title)).not.toContain('Amazing Grace');

    const upd = await g.patch(`${BASE}/songs/${a.body.id}`, { tempo: 80 });
    expect(upd.body).toMatchObject({ tempo: 80, artist: 'John Newton', tags: ['hymn', 'classic'] });
    expect((await g.get(`${BASE}/songs/${a.body.id}`)).body.tempo).toBe(80);
    expect((await h.get(`${BASE}/songs/${a.body.id}`)).status).toBe(404);
    expect((await h.patch(`${BASE}/songs/${a.body.id}`, { tempo: 90 })).status).toBe(404);
    expect((await h.delete(`${BASE}/songs/${a.body.id}`)).status).toBe(404);
    expect((await g.delete(`${BASE}/songs/${a.body.id}`)).status).toBe(200);
    expect((await g.get(`${BASE}/songs/${a.body.id}`)).status).toBe(404);
  });

  it('says when a song was last used, how often in the last 90 days, and when it is planned next', async () => {
    const s = (await g.post(`${BASE}/songs`, { title: 'Usage Song' })).body;
    for (const [date, title] of [
      [isoDay(-100), 'Old'],
      [isoDay(-30), 'Recent'],
      [isoDay(-10), 'Latest'],
      [isoDay(30), 'Future'],
    ]) {
      const p = await plan(g, { date, title });
      await g.post(`${BASE}/plans/${p.id}/items`, { title: 'Song', duration: 4, song: { songId: s.id } });
    }
    const got = (await g.get(`${BASE}/songs/${s.id}`)).body;
    expect(got.lastUsed).toBe(isoDay(-10));
    expect(got.usesLast90Days).toBe(2);
    // The coming plan is offered too: the next date it is planned for.
    expect(got.nextPlanned).toBe(isoDay(30));
  });
});

describe('team', () => {
  it('positions: create, update, delete, tenant-scoped', async () => {
    expect400(await g.post(`${BASE}/positions`, { name: '' }), 'name', 'Name is required');
    const keys = await g.post(`${BASE}/positions`, { name: 'Keys', category: 'Band' });
    expect(keys.status).toBe(201);
    expect((await g.patch(`${BASE}/positions/${keys.body.id}`, { description: 'Piano or synth' })).body).toMatchObject({
      name: 'Keys',
      category: 'Band',
      description: 'Piano or synth',
    });
    // An empty PATCH changes nothing and answers the position (not a 500 from an empty SET).
    const unchanged = await g.patch(`${BASE}/positions/${keys.body.id}`, {});
    expect(unchanged.status).toBe(200);
    expect(unchanged.body).toMatchObject({ name: 'Keys', description: 'Piano or synth' });
    expect((await h.patch(`${BASE}/positions/${keys.body.id}`, {})).status).toBe(404);
    expect((await g.get(`${BASE}/positions`)).body.map((p: { name: string }) => p.name)).toContain('Keys');
    expect((await h.get(`${BASE}/positions`)).body).toEqual([]);
    expect((await h.patch(`${BASE}/positions/${keys.body.id}`, { name: 'x' })).status).toBe(404);
    expect((await h.delete(`${BASE}/positions/${keys.body.id}`)).status).toBe(404);
    expect((await g.delete(`${BASE}/positions/${keys.body.id}`)).status).toBe(200);
  });

  it('members: positions they can fill, a linked contact filling in, blockouts, partial update', async () => {
    const vocals = (await g.post(`${BASE}/positions`, { name: 'Vocals', category: 'Band' })).body;
    const sound = (await g.post(`${BASE}/positions`, { name: 'Sound', category: 'Tech' })).body;
    expect400(await g.post(`${BASE}/members`, { name: '' }), 'name', 'Name is required');
    expect400(
      await g.post(`${BASE}/members`, { name: 'A', email: 'nope' }),
      'email',
      'Please enter a valid email address',
    );
    const m = await g.post(`${BASE}/members`, {
      name: 'Ann Lee',
      email: 'ann@example.org',
      positionIds: [vocals.id, sound.id],
    });
    expect(m.status).toBe(201);
    expect(m.body.positions.map((p: { name: string }) => p.name).sort()).toEqual(['Sound', 'Vocals']);
    const hopePos = (await h.post(`${BASE}/positions`, { name: 'Drums' })).body;
    expect((await g.patch(`${BASE}/members/${m.body.id}`, { positionIds: [hopePos.id] })).body.message).toBe(
      'Position not found',
    );
    const upd = await g.patch(`${BASE}/members/${m.body.id}`, { phone: '0400 000 000' });
    expect(upd.body).toMatchObject({
      name: 'Ann Lee',
      email: 'ann@example.org',
      phone: '0400 000 000',
      isActive: true,
    });
    expect(upd.body.positions).toHaveLength(2);

    const contact = (
      await g.post('/api/contacts', {
        firstName: 'Ben',
        lastName: 'Cole',
        email: 'ben@example.org',
        phone: '0411111111',
      })
    ).body;
    const linked = await g.post(`${BASE}/members`, { contactId: contact.id });
    expect(linked.status).toBe(201);
    expect(linked.body).toMatchObject({ name: 'Ben Cole', email: 'ben@example.org', contactId: contact.id });
    const hopeContact = (
      await h.post('/api/contacts', { firstName: 'Zed', lastName: 'Q', email: 'z@example.org', phone: '0412345678' })
    ).body;
    expect(hopeContact.id, JSON.stringify(hopeContact)).toBeTypeOf('number');
    expect((await g.post(`${BASE}/members`, { contactId: hopeContact.id })).body.message).toBe('Contact not found');

    const b = await g.post(`${BASE}/members/${m.body.id}/blockouts`, { startsOn: '2030-02-01', endsOn: '2030-02-10' });
    expect(b.status).toBe(201);
    expect(b.body.blockouts).toEqual([expect.objectContaining({ startsOn: '2030-02-01', endsOn: '2030-02-10' })]);
    expect400(
      await g.post(`${BASE}/members/${m.body.id}/blockouts`, { startsOn: '2030-02-10', endsOn: '2030-02-01' }),
      'endsOn',
      'End date must be on or after the start date',
    );
    expect(
      (await h.post(`${BASE}/members/${m.body.id}/blockouts`, { startsOn: '2030-02-01', endsOn: '2030-02-02' })).status,
    ).toBe(404);
    expect((await h.delete(`${BASE}/blockouts/${b.body.blockouts[0].id}`)).status).toBe(404);
    expect((await g.delete(`${BASE}/blockouts/${b.body.blockouts[0].id}`)).body.blockouts).toEqual([]);

    const inactive = (await g.post(`${BASE}/members`, { name: 'Ann Retired', isActive: false })).body;
    const names = async (q: string) => (await g.get(`${BASE}/members?${q}`)).body.map((x: { name: string }) => x.name);
    expect(await names('search=ann&activeOnly=true')).toEqual(['Ann Lee']);
    expect(await names('search=ann&activeOnly=false')).toEqual(['Ann Lee', 'Ann Retired']);
    expect((await g.get(`${BASE}/members?activeOnly=maybe`)).status).toBe(400);
    await g.delete(`${BASE}/members/${inactive.id}`);
    const listed = (await g.get(`${BASE}/members?search=ann`)).body;
    expect(listed.map((x: { name: string }) => x.name)).toEqual(['Ann Lee']);
    expect((await h.get(`${BASE}/members`)).body.map((x: { id: number }) => x.id)).not.toContain(m.body.id);
    expect((await h.get(`${BASE}/members/${m.body.id}`)).status).toBe(404);
    expect((await h.patch(`${BASE}/members/${m.body.id}`, { name: 'x' })).status).toBe(404);
    expect((await h.delete(`${BASE}/members/${m.body.id}`)).status).toBe(404);
    expect((await g.delete(`${BASE}/members/${linked.body.id}`)).status).toBe(200);
  });
});

describe('assignments and scheduling requests', () => {
  it('warns (409) on a blocked date or a second assignment in the plan, unless forced', async () => {
    const p = await plan(g, { date: '2030-03-03' });
    const pos = (await g.post(`${BASE}/positions`, { name: 'Slides', category: 'Tech' })).body;
    const cara = (await g.post(`${BASE}/members`, { name: 'Cara', email: 'cara@example.org' })).body;
    const dan = (await g.post(`${BASE}/members`, { name: 'Dan', email: 'dan@example.org' })).body;
    await g.post(`${BASE}/members/${dan.id}/blockouts`, {
      startsOn: '2030-03-01',
      endsOn: '2030-03-05',
      reason: 'Away',
    });

    const first = await g.post(`${BASE}/plans/${p.id}/assignments`, { memberId: cara.id, positionId: pos.id });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ memberName: 'Cara', positionName: 'Slides', status: 'scheduled', warnings: [] });

    const twice = await g.post(`${BASE}/plans/${p.id}/assignments`, { memberId: cara.id });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('Cara is already scheduled in this plan');
    const blocked = await g.post(`${BASE}/plans/${p.id}/assignments`, { memberId: dan.id, positionId: pos.id });
    expect(blocked.status).toBe(409);
    expect(blocked.body.message).toBe('Dan is away 1–5 Mar');

    const forced = await g.post(`${BASE}/plans/${p.id}/assignments`, { memberId: dan.id, force: true });
    expect(forced.status).toBe(201);
    expect(forced.body.warnings).toEqual(['Dan is away 1–5 Mar']);
    const forcedTwice = await g.post(`${BASE}/plans/${p.id}/assignments`, { memberId: cara.id, force: true });
    expect(forcedTwice.body.warnings).toEqual(['Cara is scheduled more than once in this plan']);

    const inactive = (await g.post(`${BASE}/members`, { name: 'Eve', isActive: false })).body;
    expect((await g.post(`${BASE}/plans/${p.id}/assignments`, { memberId: inactive.id })).body.message).toBe(
      'Eve is not active',
    );
    const hopeMember = (await h.post(`${BASE}/members`, { name: 'Hope Person' })).body;
    expect((await g.post(`${BASE}/plans/${p.id}/assignments`, { memberId: hopeMember.id })).body.message).toBe(
      'Team member not found',
    );
    expect((await h.post(`${BASE}/plans/${p.id}/assignments`, { memberId: hopeMember.id })).status).toBe(404);

    const upd = await g.patch(`${BASE}/assignments/${first.body.id}`, {
      status: 'confirmed',
      notes: 'Said yes at church',
    });
    expect(upd.body).toMatchObject({ status: 'confirmed', notes: 'Said yes at church', positionName: 'Slides' });
    expect(upd.body.respondedAt).not.toBeNull();
    expect400(
      await g.patch(`${BASE}/assignments/${first.body.id}`, { status: 'maybe' }),
      'status',
      'Status must be scheduled, confirmed or declined',
    );
    expect((await h.patch(`${BASE}/assignments/${first.body.id}`, { status: 'declined' })).status).toBe(404);
    expect((await h.delete(`${BASE}/assignments/${first.body.id}`)).status).toBe(404);

    const detail = (await g.get(`${BASE}/plans/${p.id}`)).body;
    expect(detail.team).toEqual({ confirmed: 1, total: 3 });
    expect((await g.delete(`${BASE}/assignments/${forcedTwice.body.id}`)).status).toBe(200);
  });

  it('two presses of Send requests at once email each person once', async () => {
    const p = await plan(g, { date: '2030-05-05', title: 'Twice pressed' });
    const people = await Promise.all(
      ['Ida', 'Jon', 'Kim'].map(
        async (name) =>
          (await g.post(`${BASE}/members`, { name, email: `${name.toLowerCase()}.twice@example.org` })).body,
      ),
    );
    for (const m of people) await g.post(`${BASE}/plans/${p.id}/assignments`, { memberId: m.id });
    const presses = await Promise.all([1, 2, 3].map(() => g.post(`${BASE}/plans/${p.id}/send-requests`)));
    for (const r of presses) expect(r.status).toBe(200);
    expect(presses.reduce((n, r) => n + (r.body.sent as number), 0)).toBe(3);
    const mails = await atLeast(3, () =>
      app.db
        .selectFrom('outboxMessages')
        .select('toAddress')
        .where('toAddress', 'like', '%.twice@example.org')
        .execute(),
    );
    // Every delivery is done: nothing else is coming.
    await atLeast(3, () =>
      app.db
        .selectFrom('deliveries')
        .select('id')
        .where('servicePlanId', '=', p.id)
        .where('status', '=', 'sent')
        .execute(),
    );
    expect(
      (
        await app.db
          .selectFrom('outboxMessages')
          .select('id')
          .where('toAddress', 'like', '%.twice@example.org')
          .execute()
      ).length,
    ).toBe(3);
    expect(mails.map((m) => m.toAddress).sort()).toEqual([
      'ida.twice@example.org',
      'jon.twice@example.org',
      'kim.twice@example.org',
    ]);
  });

  it('emails requests with Accept and Decline links; opening a link never answers, the POST does', async () => {
    const p = await plan(g, { date: '2030-04-07', title: 'Easter Sunday', location: 'Main hall' });
    const pos = (await g.post(`${BASE}/positions`, { name: 'Vocals', category: 'Band' })).body;
    const fay = (await g.post(`${BASE}/members`, { name: 'Fay', email: 'fay@example.org' })).body;
    const gus = (await g.post(`${BASE}/members`, { name: 'Gus' })).body;
    const a = (await g.post(`${BASE}/plans/${p.id}/assignments`, { memberId: fay.id, positionId: pos.id })).body;
    await g.post(`${BASE}/plans/${p.id}/assignments`, { memberId: gus.id });

    expect((await h.post(`${BASE}/plans/${p.id}/send-requests`)).status).toBe(404);
    const sent = await g.post(`${BASE}/plans/${p.id}/send-requests`);
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ sent: 1, skippedNoEmail: ['Gus'] });
    // Already asked: not emailed twice.
    expect((await g.post(`${BASE}/plans/${p.id}/send-requests`)).body.sent).toBe(0);

    const [mail] = await atLeast(1, () =>
      app.db.selectFrom('outboxMessages').selectAll().where('toAddress', '=', 'fay@example.org').execute(),
    );
    if (!mail) throw new Error('The request never reached the outbox');
    expect(mail.userId).toBe(grace.user.id);
    // No SMTP configured: the engine delivered it to the outbox, as a delivery of its own kind (and
    // records it sent just after the outbox holds it: a CI run read 'sending' in between).
    await expect
      .poll(
        () =>
          app.db
            .selectFrom('deliveries')
            .select(['kind', 'status', 'assignmentId', 'campaignId'])
            .where('id', '=', mail.deliveryId!)
            .executeTakeFirstOrThrow(),
        { timeout: 15_000 },
      )
      .toEqual({ kind: 'planner-request', status: 'sent', assignmentId: a.id, campaignId: null });
    expect(sent.body.message).toBe(
      'Requests sent to 1 person; no email address for Gus (saved to your outbox: email sending is not set up on this server yet)',
    );
    expect(mail.subject).toBe('Can you serve as Vocals on Sunday, April 7, 2030?');
    expect(mail.fromAddress).toContain('Grace Church');
    const accept = /(http:\/\/lampstand\.test\/serve\/[A-Za-z0-9_-]+)\?answer=accept/.exec(mail.text!)![1]!;
    expect(mail.html).toContain(`${accept}?answer=decline`);
    const path = accept.replace(PUBLIC_URL, '');
    const token = path.split('/').pop()!;

    // Mail scanners follow links: GETs only show the page.
    const anon = new HttpClient(app.url);
    const page = await anon.get(`${path}?answer=accept`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Can you serve?');
    expect(page.text).toContain('Easter Sunday');
    expect(page.text).toContain('method="post"');
    const info = await anon.get(`${BASE}/requests/${token}`);
    expect(info.body).toMatchObject({
      planTitle: 'Easter Sunday',
      memberName: 'Fay',
      positionName: 'Vocals',
      status: 'scheduled',
    });
    const still = (await g.get(`${BASE}/plans/${p.id}`)).body.assignments.find((x: { id: number }) => x.id === a.id);
    expect(still.status).toBe('scheduled');
    expect(still.requestedAt).not.toBeNull();

    // The button: a form POST.
    const res = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'answer=accept',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Thank you!');
    let now = (await g.get(`${BASE}/plans/${p.id}`)).body;
    expect(now.assignments.find((x: { id: number }) => x.id === a.id).status).toBe('confirmed');
    expect(now.team.confirmed).toBe(1);

    // The API's decline: they changed their mind.
    const declined = await anon.post(`${BASE}/requests/${token}/decline`);
    expect(declined.status).toBe(200);
    expect(declined.body.status).toBe('declined');
    now = (await g.get(`${BASE}/plans/${p.id}`)).body;
    expect(now.assignments.find((x: { id: number }) => x.id === a.id).status).toBe('declined');
    expect((await anon.post(`${BASE}/requests/${token}/accept`)).body.status).toBe('confirmed');

    // The request (the planner's doing) and each answer (the person's) are events.
    await eventsSettled(app.db);
    const log = (await g.get('/api/events?types=plan.request_sent,plan.accepted,plan.declined&limit=500')).body.events
      .filter((e: { data: { assignmentId: number } }) => e.data.assignmentId === a.id)
      .map((e: { type: string; actor: { kind: string }; data: unknown }) => [e.type, e.actor.kind, e.data]);
    const about = {
      person: { name: 'Fay', email: 'fay@example.org' },
      plan: { id: p.id, name: 'Easter Sunday' },
      position: 'Vocals',
      assignmentId: a.id,
    };
    expect(log).toEqual([
      ['plan.request_sent', 'user', about],
      ['plan.accepted', 'public', about],
      ['plan.declined', 'public', about],
      ['plan.accepted', 'public', about],
    ]);

    const bogus = 'x'.repeat(43);
    expect((await anon.get(`/serve/${bogus}`)).status).toBe(404);
    expect((await anon.get(`${BASE}/requests/${bogus}`)).status).toBe(404);
    expect((await anon.post(`${BASE}/requests/${bogus}/accept`)).status).toBe(404);
    expect((await anon.get(`${BASE}/requests/short`)).status).toBe(400);
    const noAnswer = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'answer=maybe',
    });
    expect(noAnswer.status).toBe(400);
  });
});

describe('announce', () => {
  it('does not ask a volunteer whose email address is suppressed', async () => {
    const p = await plan(g, { date: '2030-05-05', title: 'May Sunday' });
    const hal = (await g.post(`${BASE}/members`, { name: 'Hal', email: 'Hal.Bounced@example.org' })).body;
    const ivy = (await g.post(`${BASE}/members`, { name: 'Ivy', email: 'ivy.ok@example.org' })).body;
    await g.post(`${BASE}/plans/${p.id}/assignments`, { memberId: hal.id });
    await g.post(`${BASE}/plans/${p.id}/assignments`, { memberId: ivy.id });
    await app.db
      .insertInto('emailSuppressions')
      .values({ userId: grace.user.id, email: 'hal.bounced@example.org', reason: 'hard_bounce', detail: '5.1.1' })
      .execute();
    const sent = await g.post(`${BASE}/plans/${p.id}/send-requests`);
    expect(sent.body).toMatchObject({ sent: 1 });
    expect(sent.body.message).toContain('the email address of Hal is suppressed (it bounced or complained)');
    const asked = await app.db.selectFrom('deliveries').select('address').where('servicePlanId', '=', p.id).execute();
    expect(asked.map((d) => d.address)).toEqual(['ivy.ok@example.org']);
  });
  it('creates email, SMS, landing-page and social-post drafts from the plan, linked back to it, nothing sent', async () => {
    const p = await plan(g, {
      title: 'Harvest Sunday',
      date: '2030-05-05',
      theme: 'Thankful hearts',
      location: 'Town hall',
    });
    expect((await h.post(`${BASE}/plans/${p.id}/announce`, {})).status).toBe(404);
    const res = await g.post(`${BASE}/plans/${p.id}/announce`, {});
    expect(res.status).toBe(201);
    const kinds = res.body.drafts.map((d: { kind: string }) => d.kind);
    expect(kinds).toEqual(['email', 'sms', 'landing-page', 'social']);
    expect(res.body.copy).toBe('template'); // no AI set up here: the plain templates
    const [email, sms, landing, social] = res.body.drafts;
    expect(email.path).toBe(`/email-campaigns/${email.targetId}/edit`);
    expect(sms.path).toBe(`/sms-campaigns?edit=${sms.targetId}`);
    expect(landing.path).toBe(`/landing-pages/${landing.targetId}`);
    expect(social.path).toBe(`/social-blast?post=${social.targetId}`);

    // The landing page: a draft with the service's event details; not public until published.
    const lp = (await g.get(`/api/landing-pages/${landing.targetId}`)).body;
    expect(lp).toMatchObject({ published: false, name: 'Harvest Sunday – Sunday, May 5, 2030' });
    expect(lp.slug).toBe('harvest-sunday-sunday-may-5-2030');
    const event = lp.content.blocks.find((b: { type: string }) => b.type === 'event');
    expect(event).toMatchObject({
      title: 'Harvest Sunday',
      date: '2030-05-05',
      startTime: '10:00',
      place: 'Town hall',
    });
    expect(lp.content.headline).toBe('Harvest Sunday');
    expect(JSON.stringify(lp.content.blocks)).toContain('Thankful hearts');
    expect((await new HttpClient(app.url).get(`/p/${lp.slug}`)).status).toBe(404);

    // The social post: a draft (never published by itself) 3 days before, linking the page.
    const posts = (await g.get('/api/social-posts')).body;
    const post = posts.find((x: { id: number }) => x.id === social.targetId);
    expect(post).toMatchObject({ status: 'draft', platforms: ['facebook'], linkUrl: `${PUBLIC_URL}/p/${lp.slug}` });
    expect(post.scheduledFor).toBe('2030-05-02T10:00:00.000Z');
    expect(post.content).toContain('Harvest Sunday at Grace Church');

    const ec = (await g.get(`/api/email-campaigns/${email.targetId}`)).body;
    expect(ec).toMatchObject({ status: 'draft', listIds: [] });
    expect(ec.subject).toBe('Harvest Sunday: Sunday, May 5, 2030 at 10:00 AM');
    expect(ec.content).toContain('Grace Church');
    expect(ec.content).toContain('Thankful hearts');
    expect(ec.content).toContain('Town hall');
    const sc = (await g.get(`/api/sms-campaigns/${sms.targetId}`)).body;
    expect(sc).toMatchObject({ status: 'draft' });
    expect(sc.content).toContain('Grace Church: Harvest Sunday, Sunday, May 5, 2030 at 10:00 AM, Town hall.');
    const sent = await app.db
      .selectFrom('outboxMessages')
      .select('id')
      .where('userId', '=', grace.user.id)
      .where('campaignId', 'in', [email.targetId, sms.targetId])
      .execute();
    expect(sent).toEqual([]);

    const detail = (await g.get(`${BASE}/plans/${p.id}`)).body;
    expect(detail.announcements.map((a: { kind: string }) => a.kind).sort()).toEqual([
      'email',
      'landing-page',
      'sms',
      'social',
    ]);

    // N days before is the planner's choice (0–60); a second Announce gets a free slug.
    const again = await g.post(`${BASE}/plans/${p.id}/announce`, { socialDaysBefore: 7 });
    expect(again.status).toBe(201);
    const lp2 = (await g.get(`/api/landing-pages/${again.body.drafts[2].targetId}`)).body;
    expect(lp2.slug).toBe('harvest-sunday-sunday-may-5-2030-2');
    const post2 = (await g.get('/api/social-posts')).body.find(
      (x: { id: number }) => x.id === again.body.drafts[3].targetId,
    );
    expect(post2.scheduledFor).toBe('2030-04-28T10:00:00.000Z');
    const tooMany = await g.post(`${BASE}/plans/${p.id}/announce`, { socialDaysBefore: 61 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe('Days before must be between 0 and 60');

    // With a list chosen, the drafts go to it; another church's list is refused.
    const list = (await g.post('/api/contact-lists', { name: 'Members', type: 'both' })).body;
    const withList = await g.post(`${BASE}/plans/${p.id}/announce`, { listId: list.id });
    const ec2 = (await g.get(`/api/email-campaigns/${withList.body.drafts[0].targetId}`)).body;
    expect(ec2.listIds).toEqual([list.id]);
    const hopeList = (await h.post('/api/contact-lists', { name: 'Theirs', type: 'both' })).body;
    expect((await g.post(`${BASE}/plans/${p.id}/announce`, { listId: hopeList.id })).status).toBeGreaterThanOrEqual(
      400,
    );
    expect((await g.post(`${BASE}/plans/${p.id}/announce`, { listId: hopeList.id })).status).toBeLessThan(500);
  });
});
