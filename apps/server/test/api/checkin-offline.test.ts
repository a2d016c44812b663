import { describe, expect, it } from 'vitest';
import { sharedTestApp } from '../helpers/shared-app.js';
import { checkinChurch, monthsBefore, pairStation } from '../helpers/checkin.js';

const app = await sharedTestApp();
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

describe('a first-time family while offline', () => {
  const newFamily = {
    kind: 'add_family',
    clientId: 'fam-offline-0001',
    at: new Date().toISOString(),
    firstName: 'Naomi',
    lastName: 'Moab',
    phone: '555 040 2222',
    email: 'naomi@example.org',
    children: [
      { clientId: 'kid-offline-0001', name: 'Mara', dateOfBirth: monthsBefore(g.today, 8), allergies: 'Milk' },
      { clientId: 'kid-offline-0002', name: 'Orpah', dateOfBirth: monthsBefore(g.today, 20) },
    ],
  };
  it('is added once though the batch is sent twice, and checked in by its client ids in the same batch', async () => {
    const { codes } = (await g.station.post('/api/check-in/station/codes', { size: 60 })).body;
    const checkIn = {
      kind: 'check_in',
      clientId: 'in-new-fam-0001',
      at: new Date().toISOString(),
      familyClientId: 'fam-offline-0001',
      serviceId: g.service.id,
      securityCode: codes[59],
      children: [
        { childClientId: 'kid-offline-0001', roomId: g.nursery.id, clientId: 'in-new-kid-0001' },
        { childClientId: 'kid-offline-0002', roomId: g.nursery.id, clientId: 'in-new-kid-0002' },
      ],
    };
    const first = await g.station.post('/api/check-in/sync', { actions: [newFamily, checkIn] });
    expect(first.status).toBe(200);
    const [added, checkedIn] = first.body.results;
    expect(added).toMatchObject({ status: 'recorded', familyId: expect.any(Number) });
    expect(checkedIn).toMatchObject({ status: 'recorded', familyId: added.familyId });
    expect(
      checkedIn.checkins.map((c: { childName: string; securityCode: string }) => [c.childName, c.securityCode]),
    ).toEqual([
      ['Mara', codes[59]],
      ['Orpah', codes[59]],
    ]);

    const again = await g.station.post('/api/check-in/sync', { actions: [newFamily, checkIn] });
    expect(again.body.results.map((r: { status: string; familyId: number | null }) => [r.status, r.familyId])).toEqual([
      ['already', added.familyId],
      ['already', null],
    ]);
    const naomis = await app.db
      .selectFrom('contacts')
      .select(['id', 'emailConsent', 'smsConsent', 'emailConsentSource'])
      .where('userId', '=', g.church.user.id)
      .where('firstName', '=', 'Naomi')
      .execute();
    // Consent to campaigns is not given at a station, offline as online.
    expect(naomis).toEqual([
      { id: added.familyId, emailConsent: 'unsubscribed', smsConsent: 'unsubscribed', emailConsentSource: 'checkin' },
    ]);
    const events = (await g.church.client.get(`/api/contacts/${added.familyId}/events`)).body.events;
    const types = events.map((e: { type: string }) => e.type).sort();
    expect(types).toEqual(['checkin.checked_in', 'checkin.checked_in', 'contact.created']);
    expect(events.find((e: { type: string }) => e.type === 'contact.created').data.via).toBe('checkin');
    const inEvent = events.find((e: { type: string }) => e.type === 'checkin.checked_in');
    expect(inEvent.data).toMatchObject({ firstTime: true, offline: true });
    // The family is found online afterwards like any other, its children present.
    const found = (await g.station.get('/api/check-in/families?phone=2222')).body.families;
    expect(
      found.map((f: { id: number; children: { checkedIn: boolean }[] }) => [f.id, f.children.map((c) => c.checkedIn)]),
    ).toEqual([[added.familyId, [true, true]]]);
  });

  it('refuses a check-in of a family whose addition never arrived, and a bad family in words', async () => {
    const { codes } = (await g.station.post('/api/check-in/station/codes', { size: 60 })).body;
    const res = await g.station.post('/api/check-in/sync', {
      actions: [
        {
          kind: 'check_in',
          clientId: 'in-ghost-0001',
          at: new Date().toISOString(),
          familyClientId: 'fam-never-sent',
          securityCode: codes[58],
          children: [{ childClientId: 'kid-never-sent', roomId: g.nursery.id, clientId: 'in-ghost-kid-01' }],
        },
      ],
    });
    expect(res.body.results).toEqual([
      { clientId: 'in-ghost-0001', status: 'refused', message: 'Family not found', familyId: null, checkins: [] },
    ]);
    const bad = await g.station.post('/api/check-in/sync', {
      actions: [{ ...newFamily, clientId: 'fam-bad-phone-1', phone: '12' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Please enter a valid phone number');
    const neither = await g.station.post('/api/check-in/sync', {
      actions: [
        {
          kind: 'check_in',
          clientId: 'in-neither-0001',
          at: new Date().toISOString(),
          securityCode: codes[58],
          children: [{ childId: g.baby.id, roomId: g.nursery.id, clientId: 'in-neither-kid1' }],
        },
      ],
    });
    expect(neither.status).toBe(400);
    expect(neither.body.message).toBe('Give the family ID or the family’s client ID');
  });
});

describe('pickups while offline', () => {
  it('the bundle carries the codes of the children a station may pick up: none to a self station, its own room to a room station', async () => {
    const fam = (
      await g.station.post('/api/check-in/families', {
        firstName: 'Jael',
        lastName: 'Kenite',
        phone: '555 050 3333',
        children: [
          { name: 'Heber', dateOfBirth: monthsBefore(g.today, 10) },
          { name: 'Sisera', dateOfBirth: monthsBefore(g.today, 72), allergies: 'Bees' },
        ],
      })
    ).body.family;
    const child = (name: string) => fam.children.find((c: { name: string }) => c.name === name).id;
    await g.church.client.patch(`/api/check-in/children/${child('Sisera')}`, {
      grade: 1,
      adults: [{ name: 'Barak', relationship: 'Uncle', authorised: false }],
    });
    const res = await g.station.post('/api/check-ins', {
      familyId: fam.id,
      children: [
        { childId: child('Heber'), roomId: g.nursery.id },
        { childId: child('Sisera'), roomId: g.k2.id },
      ],
    });
    expect(res.status, res.text).toBe(201);
    const code = res.body.securityCode;

    const self = await pairStation(app.url, g.church, { name: 'Kiosk', kind: 'self' });
    const selfBundle = (await self.client.get('/api/check-in/station/offline')).body;
    expect(selfBundle.present).toEqual([]);
    expect(JSON.stringify(selfBundle)).not.toContain(`"${code}"`);

    const door = await pairStation(app.url, g.church, { name: 'K–2 door', kind: 'room', roomId: g.k2.id });
    const doorBundle = (await door.client.get('/api/check-in/station/offline')).body;
    expect(new Set(doorBundle.present.map((p: { roomId: number }) => p.roomId))).toEqual(new Set([g.k2.id]));
    expect(doorBundle.present.find((p: { childName: string }) => p.childName === 'Sisera')).toMatchObject({
      familyName: 'Jael Kenite',
      roomName: 'K–2',
      securityCode: code,
      allergies: 'Bees',
      adults: [{ name: 'Barak', relationship: 'Uncle', phone: null, authorised: false }],
    });
    expect(doorBundle.present.map((p: { childName: string }) => p.childName)).not.toContain('Heber');
    expect(doorBundle.present[0]).not.toHaveProperty('medicalNotes');

    // The manned station sees every room's children present.
    const manned = (await g.station.get('/api/check-in/station/offline')).body.present;
    expect(
      manned
        .filter((p: { familyName: string }) => p.familyName === 'Jael Kenite')
        .map((p: { childName: string }) => p.childName)
        .sort(),
    ).toEqual(['Heber', 'Sisera']);

    // Picked up offline at the door: a wrong code is refused when synced, the right one recorded.
    const sisera = doorBundle.present.find((p: { childName: string }) => p.childName === 'Sisera');
    const wrong = code === 'ZZZZ' ? 'YYYY' : 'ZZZZ';
    const at = new Date().toISOString();
    const sync = await door.client.post('/api/check-in/sync', {
      actions: [
        { kind: 'check_out', clientId: 'out-wrong-0001', at, checkinId: sisera.checkinId, securityCode: wrong },
        {
          kind: 'check_out',
          clientId: 'out-right-0001',
          at,
          checkinId: sisera.checkinId,
          securityCode: code.toLowerCase(),
        },
      ],
    });
    expect(sync.body.results.map((r: { status: string; message: string | null }) => [r.status, r.message])).toEqual([
      ['refused', 'That security code does not match this child: check the parent’s pickup tag'],
      ['recorded', null],
    ]);
    // A room station picks up in its own room only, offline as online.
    const heber = manned.find((p: { childName: string }) => p.childName === 'Heber');
    const elsewhere = await door.client.post('/api/check-in/sync', {
      actions: [{ kind: 'check_out', clientId: 'out-other-room1', at, checkinId: heber.checkinId, securityCode: code }],
    });
    expect(elsewhere.body.results[0]).toMatchObject({
      status: 'refused',
      message: 'A room station sees only its own room',
    });
    const after = (await door.client.get('/api/check-in/station/offline')).body.present;
    expect(after.map((p: { childName: string }) => p.childName)).not.toContain('Sisera');
  });
});
