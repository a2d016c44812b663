import { describe, expect, it } from 'vitest';
import { sharedTestApp } from '../helpers/shared-app.js';
import { checkinChurch, monthsBefore } from '../helpers/checkin.js';

const app = await sharedTestApp();
const g = await checkinChurch(app.url, 'Grace Church', { capacity: 2 });
const hope = await checkinChurch(app.url, 'Hope Chapel');
const CODE = /^[A-HJ-NP-Z2-9]{4}$/;

describe('finding a family', () => {
  it('by the last four digits of a phone, with each child’s room chosen by age or grade', async () => {
    const res = await g.station.get(`/api/check-in/families?phone=4321&serviceId=${g.service.id}`);
    expect(res.status).toBe(200);
    const family = res.body.families.find((f: { id: number }) => f.id === g.parent.id);
    expect(family).toMatchObject({ name: 'Ruth Boaz', phoneLast4: '4321' });
    expect(family.children).toEqual([
      expect.objectContaining({ name: 'Jesse', roomName: 'K–2', allergies: 'Peanuts', checkedIn: false }),
      expect.objectContaining({ name: 'Obed', roomName: 'Nursery', checkedIn: false }),
    ]);
  });

  it('by a name (a parent’s or a child’s), and by card', async () => {
    const byChild = await g.station.get('/api/check-in/families?name=obed');
    expect(byChild.body.families.map((f: { id: number }) => f.id)).toEqual([g.parent.id]);
    const card = (await g.church.client.post(`/api/check-in/families/${g.parent.id}/card`)).body.token;
    const byCard = await g.station.get(`/api/check-in/families?card=${card}`);
    expect(byCard.body.families[0].id).toBe(g.parent.id);
    // Another church's card is not known here.
    const theirs = (await hope.church.client.post(`/api/check-in/families/${hope.parent.id}/card`)).body.token;
    expect((await g.station.get(`/api/check-in/families?card=${theirs}`)).status).toBe(404);
    expect((await g.station.get('/api/check-in/families?phone=12')).body.message).toBe(
      'Enter the last four digits of the phone number',
    );
    expect((await g.station.get('/api/check-in/families')).body.message).toBe(
      'Search by the last four digits of a phone, a name or a card',
    );
  });
});

describe('checking in and picking up', () => {
  it('checks a family in with one code, refuses a wrong code at pickup, releases the code after', async () => {
    const res = await g.station.post('/api/check-ins', {
      familyId: g.parent.id,
      serviceId: g.service.id,
      children: [
        { childId: g.baby.id, roomId: g.nursery.id },
        { childId: g.kid.id, roomId: g.k2.id },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.securityCode).toMatch(CODE);
    expect(res.body.checkins).toHaveLength(2);
    expect(new Set(res.body.checkins.map((c: { securityCode: string }) => c.securityCode))).toEqual(
      new Set([res.body.securityCode]),
    );
    const again = await g.station.post('/api/check-ins', {
      familyId: g.parent.id,
      children: [{ childId: g.baby.id, roomId: g.nursery.id }],
    });
    expect(again.status).toBe(409);

    const [baby, kid] = res.body.checkins;
    const wrong = await g.station.post(`/api/check-ins/${baby.id}/checkout`, { securityCode: 'ZZZZ' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/does not match/);
    const noCode = await g.station.post(`/api/check-ins/${baby.id}/checkout`, {});
    expect(noCode.body.message).toBe('Security code is required');
    const ok = await g.station.post(`/api/check-ins/${baby.id}/checkout`, {
      securityCode: res.body.securityCode.toLowerCase(),
    });
    expect(ok.status).toBe(200);
    expect(ok.body.checkedOutAt).not.toBeNull();
    expect(
      (await g.station.post(`/api/check-ins/${baby.id}/checkout`, { securityCode: baby.securityCode })).status,
    ).toBe(409);

    // A station may not override; staff may, with a reason, and it is recorded.
    const stationOverride = await g.station.post(`/api/check-ins/${kid.id}/checkout`, { override: true, reason: 'x' });
    expect(stationOverride.status).toBe(403);
    const noReason = await g.church.client.post(`/api/check-ins/${kid.id}/checkout`, { override: true });
    expect(noReason.body.message).toBe('Say why the child is picked up without the code');
    const staff = await g.church.client.post(`/api/check-ins/${kid.id}/checkout`, {
      override: true,
      reason: 'Tag lost; ID checked',
    });
    expect(staff.body).toMatchObject({ checkoutOverride: true });

    const activity = await g.church.client.get(`/api/contacts/${g.parent.id}/events?kinds=checkin`);
    const types = activity.body.events.map((e: { type: string }) => e.type);
    expect(types.filter((t: string) => t === 'checkin.checked_in')).toHaveLength(2);
    expect(types.filter((t: string) => t === 'checkin.checked_out')).toHaveLength(2);
    const overridden = activity.body.events.find(
      (e: { type: string; data: { override: unknown } }) => e.type === 'checkin.checked_out' && e.data.override,
    );
    expect(overridden.data.override).toEqual({ reason: 'Tag lost; ID checked' });
    expect(JSON.stringify(activity.body)).not.toContain(res.body.securityCode + '"');
    // Both children picked up: the family's code is released, free to be given again.
    const codeRow = await app.db
      .selectFrom('checkinCodes')
      .select(['state', 'releasedAt'])
      .where('code', '=', res.body.securityCode)
      .where('day', '=', g.today)
      .execute();
    expect(codeRow).toEqual([{ state: 'released', releasedAt: expect.any(Date) }]);
  });

  it('refuses a child too old for the room in words, unless overridden', async () => {
    const tooOld = await g.station.post('/api/check-ins', {
      familyId: g.parent.id,
      children: [{ childId: g.kid.id, roomId: g.nursery.id }],
    });
    expect(tooOld.status).toBe(400);
    expect(tooOld.body.message).toBe(
      'Jesse is too old for Nursery (0–24 months): choose another room, or check in with an override',
    );
    expect(tooOld.body.issues[0].path).toBe('children.0.roomId');
    const over = await g.station.post('/api/check-ins', {
      familyId: g.parent.id,
      children: [{ childId: g.kid.id, roomId: g.nursery.id, ageOverride: true }],
    });
    expect(over.status).toBe(201);
    expect(over.body.checkins[0].ageOverride).toBe(true);
    await g.church.client.post(`/api/check-ins/${over.body.checkins[0].id}/checkout`, {
      securityCode: over.body.securityCode,
    });
  });

  it('warns before a room goes over capacity, then checks in when confirmed', async () => {
    const family = (
      await g.station.post('/api/check-in/families', {
        firstName: 'Naomi',
        lastName: 'Elimelech',
        phone: '555 010 9876',
        children: [
          { name: 'Mahlon', dateOfBirth: monthsBefore(g.today, 5), allergies: 'Milk' },
          { name: 'Chilion', dateOfBirth: monthsBefore(g.today, 6) },
          { name: 'Orpah', dateOfBirth: monthsBefore(g.today, 7) },
        ],
      })
    ).body.family;
    expect(family.children.map((c: { roomName: string }) => c.roomName)).toEqual(['Nursery', 'Nursery', 'Nursery']);
    const children = family.children.map((c: { id: number }) => ({ childId: c.id, roomId: g.nursery.id }));
    const full = await g.station.post('/api/check-ins', { familyId: family.id, children });
    expect(full.status).toBe(409);
    expect(full.body.message).toBe('Over capacity: Nursery (0 of 2). Confirm to check in anyway');
    const confirmed = await g.station.post('/api/check-ins', {
      familyId: family.id,
      children,
      confirmOverCapacity: true,
    });
    expect(confirmed.status).toBe(201);
    expect(confirmed.body.checkins.every((c: { capacityOverride: boolean }) => c.capacityOverride)).toBe(true);

    const counts = (await g.station.get('/api/check-ins/headcounts')).body;
    expect(counts.rooms.find((r: { roomName: string }) => r.roomName === 'Nursery')).toMatchObject({ present: 3 });
    const kept = await g.church.client.delete(`/api/check-in/rooms/${g.nursery.id}`);
    expect(kept.status).toBe(409);
    expect(kept.body.message).toMatch(/^This room has check-ins/);
    const listed = (await g.station.get(`/api/check-ins?room=${g.nursery.id}&present=true`)).body;
    expect(listed.map((c: { childName: string }) => c.childName).sort()).toEqual(['Chilion', 'Mahlon', 'Orpah']);

    const created = await g.church.client.get(`/api/contacts/${family.id}/events`);
    const first = created.body.events.find((e: { type: string }) => e.type === 'checkin.checked_in');
    expect(first.data.firstTime).toBe(true);
    expect(first.actor).toMatchObject({ kind: 'station', id: g.stationRow.id });
  });

  it('shows the room its roster with adults; the custody note only to staff, and reads are logged', async () => {
    await g.church.client.patch(`/api/check-in/children/${g.baby.id}`, {
      medicalNotes: 'Epipen in bag',
      custodyNote: 'Father not to pick up (court order)',
      adults: [
        { name: 'Ruth Boaz', relationship: 'Mother', authorised: true },
        { name: 'Mr Tob', relationship: 'Father', authorised: false },
      ],
    });
    const res = await g.station.post('/api/check-ins', {
      familyId: g.parent.id,
      children: [{ childId: g.baby.id, roomId: g.nursery.id }],
      confirmOverCapacity: true,
    });
    expect(res.status).toBe(201);
    const roster = (await g.station.get(`/api/check-in/rooms/${g.nursery.id}/roster`)).body;
    const obed = roster.children.find(
      (c: { name: string; checkedOutAt: string | null }) => c.name === 'Obed' && !c.checkedOutAt,
    );
    expect(obed).toMatchObject({ securityCode: res.body.securityCode, medicalNotes: 'Epipen in bag' });
    expect(obed.adults).toEqual([
      { name: 'Ruth Boaz', relationship: 'Mother', phone: null, authorised: true },
      { name: 'Mr Tob', relationship: 'Father', phone: null, authorised: false },
    ]);
    expect(obed).not.toHaveProperty('custodyNote');
    const staffRoster = (await g.church.client.get(`/api/check-in/rooms/${g.nursery.id}/roster`)).body;
    expect(staffRoster.children.find((c: { name: string }) => c.name === 'Obed').custodyNote).toMatch(/court order/);
    const reads = await app.db
      .selectFrom('checkinNoteReads')
      .select(['note', 'readerKind', 'readerId'])
      .where('childId', '=', g.baby.id)
      .orderBy('id')
      .execute();
    expect(reads).toEqual([
      { note: 'medical', readerKind: 'user', readerId: g.church.user.id },
      { note: 'custody', readerKind: 'user', readerId: g.church.user.id },
      { note: 'medical', readerKind: 'station', readerId: g.stationRow.id },
      { note: 'medical', readerKind: 'user', readerId: g.church.user.id },
      { note: 'custody', readerKind: 'user', readerId: g.church.user.id },
    ]);
  });
});

describe("another church's rows", () => {
  it('are 404', async () => {
    const mine = { familyId: g.parent.id, children: [{ childId: g.kid.id, roomId: g.k2.id }] };
    expect((await hope.station.post('/api/check-ins', mine)).status).toBe(404);
    const theirRoom = { familyId: hope.parent.id, children: [{ childId: hope.kid.id, roomId: g.k2.id }] };
    expect((await hope.station.post('/api/check-ins', theirRoom)).status).toBe(404);
    expect((await hope.station.get(`/api/check-in/rooms/${g.nursery.id}/roster`)).status).toBe(404);
    expect((await hope.church.client.put(`/api/check-in/rooms/${g.nursery.id}`, { name: 'X' })).status).toBe(404);
    const gc = (await g.station.get('/api/check-ins')).body[0];
    expect(
      (await hope.station.post(`/api/check-ins/${gc.id}/checkout`, { securityCode: gc.securityCode })).status,
    ).toBe(404);
    expect((await hope.church.client.get(`/api/check-in/children/${g.kid.id}`)).status).toBe(404);
  });
});
