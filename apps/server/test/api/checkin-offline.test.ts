import { describe, expect, it } from 'vitest';
import { registerChurch, startTestApp } from '../helpers/test-app.js';
import { checkinChurch, monthsBefore, pairStation } from '../helpers/checkin.js';

const app = await startTestApp();
await registerChurch(app.url, 'Platform');
const g = await checkinChurch(app.url, 'Grace Church', { capacity: 100 });
const hope = await checkinChurch(app.url, 'Hope Chapel');

/** 30 first-time families of one baby each, added while the station was online. */
async function thirtyFamilies() {
  const families: { id: number; childId: number }[] = [];
  for (let i = 0; i < 30; i++) {
    const res = await g.station.post('/api/check-in/families', {
      firstName: `Parent${i}`,
      lastName: 'Offline',
      phone: `555 020 ${String(1000 + i)}`,
      children: [{ name: `Baby${i}`, dateOfBirth: monthsBefore(g.today, 6 + (i % 12)) }],
    });
    expect(res.status).toBe(201);
    families.push({ id: res.body.family.id, childId: res.body.family.children[0].id });
  }
  return families;
}

describe('offline check-in', () => {
  it('30 check-ins made offline, then synced: 30 check-ins, 30 distinct codes, none lost; twice records once', async () => {
    const bundle = await g.station.get('/api/check-in/station/offline');
    expect(bundle.status).toBe(200);
    expect(bundle.body.rooms.map((r: { name: string }) => r.name)).toEqual(['K–2', 'Nursery']);
    expect(bundle.body.codes).toHaveLength(50);
    const codes: string[] = bundle.body.codes;
    expect(new Set(codes).size).toBe(50);

    const families = await thirtyFamilies();
    // Meanwhile another station checks in online: it never gets one of this station's codes.
    const other = await pairStation(app.url, g.church, { name: 'Second', kind: 'manned' });
    const online = await other.client.post('/api/check-ins', {
      familyId: g.parent.id,
      children: [{ childId: g.baby.id, roomId: g.nursery.id }],
    });
    expect(online.status).toBe(201);
    expect(codes).not.toContain(online.body.securityCode);

    const at = new Date().toISOString();
    const actions = families.map((f, i) => ({
      kind: 'check_in',
      clientId: `offline-in-${i}-abcdef`,
      at,
      familyId: f.id,
      serviceId: g.service.id,
      securityCode: codes[i],
      children: [{ childId: f.childId, roomId: g.nursery.id, clientId: `offline-child-${i}-abcdef` }],
    }));
    // The station picks one child up offline too, by the child's offline id.
    const pickup = {
      kind: 'check_out',
      clientId: 'offline-out-0-abcdef',
      at,
      checkinClientId: 'offline-child-0-abcdef',
      securityCode: codes[0],
    };
    const first = await g.station.post('/api/check-in/sync', { actions: [...actions, pickup] });
    expect(first.status).toBe(200);
    expect(first.body.results.map((r: { status: string }) => r.status)).toEqual(Array(31).fill('recorded'));

    const again = await g.station.post('/api/check-in/sync', { actions: [...actions, pickup] });
    expect(again.body.results.map((r: { status: string }) => r.status)).toEqual(Array(31).fill('already'));

    const all = (await g.church.client.get('/api/check-ins')).body.filter((c: { familyName: string }) =>
      c.familyName.endsWith('Offline'),
    );
    expect(all).toHaveLength(30);
    expect(new Set(all.map((c: { securityCode: string }) => c.securityCode)).size).toBe(30);
    expect(all.filter((c: { checkedOutAt: string | null }) => c.checkedOutAt !== null)).toHaveLength(1);
    const counts = (await g.church.client.get('/api/check-ins/headcounts')).body.rooms;
    const nursery = counts.find((r: { roomName: string; serviceId: number | null }) => r.serviceId === g.service.id);
    expect(nursery).toMatchObject({ roomName: 'Nursery', checkedIn: 30, present: 29 });
  });

  it('refuses a code not reserved for this station, and another church’s family, and goes on', async () => {
    const fam = (
      await g.station.post('/api/check-in/families', {
        firstName: 'Late',
        lastName: 'Comer',
        phone: '555 030 1111',
        children: [{ name: 'Tiny', dateOfBirth: monthsBefore(g.today, 3) }],
      })
    ).body.family;
    const { codes } = (await g.station.post('/api/check-in/station/codes', { size: 2 })).body;
    const otherStation = await pairStation(app.url, g.church, { name: 'Third', kind: 'self' });
    const theirCodes = (await otherStation.client.post('/api/check-in/station/codes', { size: 1 })).body.codes;
    const base = { kind: 'check_in', at: new Date().toISOString(), serviceId: null };
    const res = await g.station.post('/api/check-in/sync', {
      actions: [
        {
          ...base,
          clientId: 'wrong-code-1',
          familyId: fam.id,
          securityCode: theirCodes[0],
          children: [{ childId: fam.children[0].id, roomId: g.nursery.id, clientId: 'wrong-code-child' }],
        },
        {
          ...base,
          clientId: 'their-family',
          familyId: hope.parent.id,
          securityCode: codes[0],
          children: [{ childId: hope.baby.id, roomId: g.nursery.id, clientId: 'their-family-child' }],
        },
        {
          ...base,
          clientId: 'right-one-1',
          familyId: fam.id,
          securityCode: codes[1],
          children: [{ childId: fam.children[0].id, roomId: g.nursery.id, clientId: 'right-one-child' }],
        },
      ],
    });
    expect(res.body.results.map((r: { status: string; message: string | null }) => [r.status, r.message])).toEqual([
      ['refused', 'That security code is not one reserved for this station today'],
      ['refused', 'Family not found'],
      ['recorded', null],
    ]);
    // The next bundle has the families that checked in lately (for finding them offline).
    const bundle = (await g.station.get('/api/check-in/station/offline')).body;
    const late = bundle.families.find((f: { id: number }) => f.id === fam.id);
    expect(late).toMatchObject({ name: 'Late Comer', phoneLast4: '1111' });
    expect(late.children[0]).toMatchObject({ name: 'Tiny', roomName: 'Nursery', checkedIn: true });
    expect(bundle.families.map((f: { id: number }) => f.id)).not.toContain(hope.parent.id);
  });

  it('is for stations only, with worded errors for a bad batch', async () => {
    expect((await g.church.client.post('/api/check-in/station/codes', {})).status).toBe(403);
    const bad = await g.station.post('/api/check-in/sync', { actions: [] });
    expect(bad.body.message).toBe('Send at least one action');
    const badId = await g.station.post('/api/check-in/sync', {
      actions: [{ kind: 'check_out', clientId: 'x', at: 'now', securityCode: 'ABCD' }],
    });
    expect(badId.status).toBe(400);
    expect(badId.body.message).toBe('Client ID must be 8 to 64 letters, digits or dashes');
  });
});
