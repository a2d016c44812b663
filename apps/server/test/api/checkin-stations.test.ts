import { describe, expect, it } from 'vitest';
import { HttpClient } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';
import { checkinChurch, pairStation } from '../helpers/checkin.js';
import { restRoutes } from '../../src/rest/route-list.js';

const app = await sharedTestApp();
const grace = await checkinChurch(app.url, 'Grace Church');
const hope = await checkinChurch(app.url, 'Hope Chapel');

describe('station pairing', () => {
  it('pairs a browser once with a one-time code; a wrong or used code is refused in words', async () => {
    const created = await grace.church.client.post('/api/check-in/stations', { name: 'Door', kind: 'self' });
    expect(created.status).toBe(201);
    expect(created.body.pairingCode).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(created.body.station).toMatchObject({ name: 'Door', kind: 'self', paired: false });

    const browser = new HttpClient(app.url);
    const wrong = await browser.post('/api/check-in/pair', { code: 'AAAA2222' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/pairing code is not right/);

    const ok = await browser.post('/api/check-in/pair', { code: created.body.pairingCode.toLowerCase() });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: created.body.station.id, paired: true });
    expect([...browser.cookies.keys()]).toEqual(['lampstand.station']);
    expect((await browser.get('/api/check-in/station')).body).toMatchObject({ name: 'Door', kind: 'self' });

    const again = await new HttpClient(app.url).post('/api/check-in/pair', { code: created.body.pairingCode });
    expect(again.status).toBe(400);

    const listed = (await grace.church.client.get('/api/check-in/stations')).body;
    expect(listed.find((s: { id: number }) => s.id === created.body.station.id)).toMatchObject({ paired: true });
    expect(JSON.stringify(listed)).not.toMatch(/token|secret|pairing/i);
  });

  it('unpairing ends the cookie at once', async () => {
    const { client, station } = await pairStation(app.url, grace.church, { name: 'Temp', kind: 'manned' });
    expect((await client.get('/api/check-ins')).status).toBe(200);
    expect((await grace.church.client.post(`/api/check-in/stations/${station.id}/unpair`)).status).toBe(200);
    expect((await client.get('/api/check-ins')).status).toBe(401);
  });

  it('refuses bad station input in words', async () => {
    const room = await grace.church.client.post('/api/check-in/stations', { name: 'Room', kind: 'room' });
    expect(room.status).toBe(400);
    expect(room.body.message).toBe('A room station needs its room');
    const bridge = await grace.church.client.post('/api/check-in/stations', {
      name: 'B',
      kind: 'manned',
      printer: 'bridge',
    });
    expect(bridge.body.message).toBe('A station printing through a bridge needs its address');
    const theirRoom = await grace.church.client.post('/api/check-in/stations', {
      name: 'X',
      kind: 'room',
      roomId: hope.nursery.id,
    });
    expect(theirRoom.status).toBe(404);
  });

  it("another church's station is a 404", async () => {
    const id = hope.stationRow.id;
    expect((await grace.church.client.post(`/api/check-in/stations/${id}/unpair`)).status).toBe(404);
    expect((await grace.church.client.post(`/api/check-in/stations/${id}/pairing-code`)).status).toBe(404);
    expect((await grace.church.client.delete(`/api/check-in/stations/${id}`)).status).toBe(404);
  });
});

describe("what a station's cookie reaches", () => {
  it('every staff route answers 401 or 403 to a station', async () => {
    const staffRoutes = restRoutes.filter((r) => r.access !== 'public' && r.access !== 'station');
    expect(staffRoutes.length).toBeGreaterThan(100);
    const refused: string[] = [];
    for (const r of staffRoutes) {
      const path = r.path.replace(/\{[^}]+\}/g, '1');
      const res = await grace.station.request(
        r.method,
        path,
        r.method === 'GET' || r.method === 'DELETE' ? undefined : {},
      );
      if (res.status !== 401 && res.status !== 403) refused.push(`${r.method} ${r.path} → ${res.status}`);
    }
    expect(refused).toEqual([]);
    // tRPC too: a staff procedure over /trpc.
    expect((await grace.station.get('/trpc/contacts.find?input=%7B%7D')).status).toBe(401);
  });

  it('reaches the check-in routes, and only today', async () => {
    expect((await grace.station.get('/api/check-ins')).status).toBe(200);
    expect((await grace.station.get('/api/check-ins/headcounts')).status).toBe(200);
    const yesterday = await grace.station.get('/api/check-ins?date=2020-01-05');
    expect(yesterday.status).toBe(403);
    expect(yesterday.body.message).toMatch(/only today/);
    expect((await grace.church.client.get('/api/check-ins?date=2020-01-05')).status).toBe(200);
  });

  it('a self-service station checks families in, and never sees codes or picks up', async () => {
    const { client: kiosk } = await pairStation(app.url, grace.church, { name: 'Kiosk', kind: 'self' });
    const res = await kiosk.post('/api/check-ins', {
      familyId: grace.parent.id,
      children: [{ childId: grace.kid.id, roomId: grace.k2.id }],
    });
    expect(res.status).toBe(201);
    expect((await kiosk.get(`/api/check-in/labels?securityCode=${res.body.securityCode}`)).status).toBe(200);
    const list = await kiosk.get('/api/check-ins');
    expect(list.status).toBe(403);
    expect(list.body.message).toBe('A self-service station cannot list check-ins');
    expect((await kiosk.get('/api/check-ins/headcounts')).status).toBe(403);
    expect((await kiosk.get(`/api/check-in/rooms/${grace.k2.id}/roster`)).status).toBe(403);
    const id = res.body.checkins[0].id;
    const out = await kiosk.post(`/api/check-ins/${id}/checkout`, { securityCode: res.body.securityCode });
    expect(out.status).toBe(403);
    expect(out.body.message).toBe('A self-service station cannot pick children up');

    // A room station: its own room's roster and pickups only.
    const { client: k2 } = await pairStation(app.url, grace.church, {
      name: 'K–2 room',
      kind: 'room',
      roomId: grace.k2.id,
    });
    expect((await k2.get(`/api/check-in/rooms/${grace.nursery.id}/roster`)).body.message).toBe(
      'A room station sees only its own room',
    );
    expect((await k2.get(`/api/check-ins?room=${grace.nursery.id}`)).status).toBe(403);
    const mine = (await k2.get('/api/check-ins')).body;
    expect(mine.map((c: { roomId: number }) => c.roomId)).toEqual([grace.k2.id]);
    expect((await k2.get(`/api/check-in/rooms/${grace.k2.id}/roster`)).body.children).toHaveLength(1);
    expect((await k2.post(`/api/check-ins/${id}/checkout`, { securityCode: res.body.securityCode })).status).toBe(200);
  });

  it('a staff-only check-in action is refused to a station', async () => {
    const care = await grace.station.get(`/api/check-in/children/${grace.kid.id}`);
    expect([401, 403]).toContain(care.status);
  });
});
