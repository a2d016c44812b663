import { describe, expect, it } from 'vitest';
import { sql } from '@lampstand/db';
import { HttpClient, registerChurch } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';

const app = await sharedTestApp();
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');

let n = 0;
export function contactPayload(overrides: Record<string, unknown> = {}) {
  n++;
  return {
    userId: 999,
    firstName: `Mary${n}`,
    lastName: 'Smith',
    email: `mary${n}@example.org`,
    phone: '412 345 678',
    metadata: { countryCode: '+61' },
    ...overrides,
  };
}

describe('POST /api/contacts', () => {
  it('creates a contact in the signed-in church with defaults, E.164 phone and subscribed consent', async () => {
    const res = await grace.client.post(
      '/api/contacts',
      contactPayload({
        firstName: ' Ruth ',
        lastName: 'Naomi',
        metadata: {
          countryCode: '+61',
          dateOfBirth: '1990-12-31',
          isServiceStaff: true,
          staffRole: 'pastor',
          wwccNumber: 'WWC123',
        },
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      userId: grace.user.id,
      firstName: 'Ruth',
      lastName: 'Naomi',
      phone: '412 345 678',
      phoneE164: '+61412345678',
      tags: [],
      metadata: {
        countryCode: '+61',
        dateOfBirth: '1990-12-31',
        isChurchMember: false,
        isBaptised: false,
        isSeeker: false,
        isServiceStaff: true,
        staffRole: 'pastor',
        wwccNumber: 'WWC123',
        notes: null,
      },
      consent: { email: { status: 'subscribed' }, sms: { status: 'subscribed' } },
    });
    const row = await app.db
      .selectFrom('contacts')
      .select(['dateOfBirth', 'userId'])
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ dateOfBirth: '1990-12-31', userId: grace.user.id });
  });

  it("reads a phone sent without a country code in the church's default country", async () => {
    const us = await registerChurch(app.url, 'Bay Church');
    const bad = await us.client.put('/api/settings', { defaultCountryCode: '+99' });
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0]).toMatchObject({ path: 'defaultCountryCode', message: 'Please choose a country code' });
    const set = await us.client.put('/api/settings', { defaultCountryCode: '+1' });
    expect(set.status).toBe(200);
    expect(set.body.defaultCountryCode).toBe('+1');
    expect((await us.client.get('/api/settings')).body.defaultCountryCode).toBe('+1');
    const { metadata: _none, ...noCountry } = contactPayload({ phone: '4155550100' });
    const created = await us.client.post('/api/contacts', noCountry);
    expect(created.status, created.text).toBe(201);
    expect(created.body.phoneE164).toBe('+14155550100');
    expect(created.body.metadata.countryCode).toBe('+1');
    // A church that never chose keeps '+61'.
    expect((await grace.client.get('/api/settings')).body.defaultCountryCode).toBe('+61');
    const { metadata: _n, ...au } = contactPayload({ phone: '0412 345 678' });
    expect((await grace.client.post('/api/contacts', au)).body.phoneE164).toBe('+61412345678');
    // PATCH of a contact stored without a country code (an older row): the church's country too.
    await app.db
      .updateTable('contacts')
      .set({ metadata: sql<string>`metadata - 'countryCode'` })
      .where('id', '=', created.body.id)
      .execute();
    const patched = await us.client.patch(`/api/contacts/${created.body.id}`, { phone: '415 555 0101' });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.phoneE164).toBe('+14155550101');
    // Merge: the other contact's phone, stored without a country, is read in it as well.
    const keep = await us.client.post('/api/contacts', contactPayload({ metadata: { countryCode: '+1' } }));
    await app.db
      .updateTable('contacts')
      .set({ phone: null, phoneE164: null, metadata: sql<string>`metadata - 'countryCode'` })
      .where('id', '=', keep.body.id)
      .execute();
    await app.db
      .updateTable('contacts')
      .set({ metadata: sql<string>`metadata - 'countryCode'` })
      .where('id', '=', created.body.id)
      .execute();
    const merged = await us.client.post(`/api/contacts/${keep.body.id}/merge`, { otherId: created.body.id });
    expect(merged.status, merged.text).toBe(200);
    expect((await us.client.get(`/api/contacts/${keep.body.id}`)).body).toMatchObject({
      phoneE164: '+14155550101',
      metadata: { countryCode: '+1' },
    });
  });

  it('reads the phone in the chosen country', async () => {
    const us = await grace.client.post(
      '/api/contacts',
      contactPayload({ phone: '(202) 555-0143', metadata: { countryCode: '+1' } }),
    );
    expect(us.body.phoneE164).toBe('+12025550143');
    const uk = await grace.client.post(
      '/api/contacts',
      contactPayload({ phone: '7911 123456', metadata: { countryCode: '+44' } }),
    );
    expect(uk.body.phoneE164).toBe('+447911123456');
  });

  it('drops staffRole and wwccNumber unless the contact is service staff', async () => {
    const res = await grace.client.post(
      '/api/contacts',
      contactPayload({ metadata: { isServiceStaff: false, staffRole: 'elder', wwccNumber: 'X' } }),
    );
    expect(res.body.metadata.staffRole).toBeNull();
    expect(res.body.metadata.wwccNumber).toBeNull();
  });

  it.each([
    [{ firstName: '' }, 'firstName', 'First name is required'],
    [{ firstName: undefined }, 'firstName', 'First name is required'],
    [{ lastName: '  ' }, 'lastName', 'Last name is required'],
    [{ email: 'nope' }, 'email', 'Please enter a valid email address'],
    [{ phone: '123' }, 'phone', 'Please enter a valid phone number'],
    [{ metadata: { countryCode: '+99' } }, 'metadata.countryCode', 'Please choose a country code'],
    [{ metadata: { dateOfBirth: '31/12/1990' } }, 'metadata.dateOfBirth', 'Please enter a valid date (YYYY-MM-DD)'],
    [{ metadata: { isServiceStaff: true, staffRole: 'bishop' } }, 'metadata.staffRole', undefined],
  ])('rejects %j with 400 naming %s', async (override, field, message) => {
    const res = await grace.client.post('/api/contacts', contactPayload(override));
    expect(res.status).toBe(400);
    expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(field);
    if (message) expect(res.body.message).toBe(message);
  });

  it('needs a session', async () => {
    expect((await new HttpClient(app.url).post('/api/contacts', contactPayload())).status).toBe(401);
  });
});

describe('GET /api/contacts and /api/contacts/{id}', () => {
  it("lists only the church's own contacts", async () => {
    await hope.client.post('/api/contacts', contactPayload({ firstName: 'HopeOnly' }));
    const res = await grace.client.get('/api/contacts');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.length).toBeGreaterThan(0);
    expect(res.body.every((c: { userId: number }) => c.userId === grace.user.id)).toBe(true);
    expect(res.body.some((c: { firstName: string }) => c.firstName === 'HopeOnly')).toBe(false);
  });

  it("another church's contact is a 404 for read, update and delete", async () => {
    const theirs = (await hope.client.post('/api/contacts', contactPayload())).body;
    expect((await grace.client.get(`/api/contacts/${theirs.id}`)).status).toBe(404);
    expect((await grace.client.patch(`/api/contacts/${theirs.id}`, contactPayload())).status).toBe(404);
    expect((await grace.client.delete(`/api/contacts/${theirs.id}`)).status).toBe(404);
    expect((await grace.client.get(`/api/contacts/${theirs.id}/lists`)).status).toBe(404);
    expect(
      (await grace.client.put(`/api/contacts/${theirs.id}/consent`, { channel: 'email', status: 'unsubscribed' }))
        .status,
    ).toBe(404);
    expect((await hope.client.get(`/api/contacts/${theirs.id}`)).status).toBe(200);
  });
});

describe('GET /api/contacts/tags', () => {
  it("lists the church's tags once each, A to Z, and none of another church's", async () => {
    await grace.client.post('/api/contacts', contactPayload({ tags: ['volunteer', 'Youth'] }));
    await grace.client.post('/api/contacts', contactPayload({ tags: ['elder', 'volunteer'] }));
    await hope.client.post('/api/contacts', contactPayload({ tags: ['hope-only'] }));
    const res = await grace.client.get('/api/contacts/tags');
    expect(res.status).toBe(200);
    expect(res.body.tags).toEqual(['elder', 'volunteer', 'Youth']);
    expect((await hope.client.get('/api/contacts/tags')).body.tags).toEqual(['hope-only']);
  });

  it('needs a session', async () => {
    expect((await new HttpClient(app.url).get('/api/contacts/tags')).status).toBe(401);
  });
});

describe('GET /api/contacts/search', () => {
  it('searches name, email and phone case-insensitively, filters tabs and pages', async () => {
    const church = await registerChurch(app.url, 'Search Church');
    const mk = (o: Record<string, unknown>) => church.client.post('/api/contacts', contactPayload(o));
    await mk({ firstName: 'Abigail', lastName: 'Zephyr', email: 'abi@river.org', metadata: { isChurchMember: true } });
    await mk({
      firstName: 'Boaz',
      lastName: 'Young',
      email: 'boaz@field.org',
      phone: '0499 888 777',
      metadata: { isServiceStaff: true, staffRole: 'elder' },
    });
    await mk({
      firstName: 'Cara',
      lastName: 'Xu',
      email: 'cara@RIVER.org',
      metadata: { isChurchMember: true, isServiceStaff: true },
    });

    const byName = await church.client.get('/api/contacts/search?search=zEPH');
    expect(byName.body.items.map((c: { firstName: string }) => c.firstName)).toEqual(['Abigail']);
    const byEmail = await church.client.get('/api/contacts/search?search=river.ORG');
    expect(byEmail.body.items.map((c: { firstName: string }) => c.firstName)).toEqual(['Cara', 'Abigail']);
    const byPhone = await church.client.get('/api/contacts/search?search=888%20777');
    expect(byPhone.body.items.map((c: { firstName: string }) => c.firstName)).toEqual(['Boaz']);
    const twoWords = await church.client.get('/api/contacts/search?search=boaz%20young');
    expect(twoWords.body.total).toBe(1);
    const literalPercent = await church.client.get('/api/contacts/search?search=%25');
    expect(literalPercent.body.total).toBe(0);

    const members = await church.client.get('/api/contacts/search?tab=members');
    expect(members.body.items.map((c: { firstName: string }) => c.firstName)).toEqual(['Cara', 'Abigail']);
    const staff = await church.client.get('/api/contacts/search?tab=staff');
    expect(staff.body.items.map((c: { firstName: string }) => c.firstName)).toEqual(['Cara', 'Boaz']);

    const page = await church.client.get('/api/contacts/search?pageSize=2&page=2');
    expect(page.body).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page.body.items.map((c: { lastName: string }) => c.lastName)).toEqual(['Zephyr']);

    expect((await church.client.get('/api/contacts/search?tab=everyone')).status).toBe(400);
  });
});

describe('PATCH /api/contacts/{id}', () => {
  it('updates the contact and recomputes the E.164 phone', async () => {
    const c = (await grace.client.post('/api/contacts', contactPayload())).body;
    const res = await grace.client.patch(
      `/api/contacts/${c.id}`,
      contactPayload({
        firstName: 'Changed',
        phone: '0400 111 222',
        metadata: { countryCode: '+61', isChurchMember: true, notes: 'Leads the choir' },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: c.id,
      firstName: 'Changed',
      phoneE164: '+61400111222',
      metadata: { isChurchMember: true, notes: 'Leads the choir' },
    });
    expect(new Date(res.body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(c.updatedAt).getTime());
  });

  it('validates the fields it is given', async () => {
    const c = (await grace.client.post('/api/contacts', contactPayload())).body;
    const res = await grace.client.patch(`/api/contacts/${c.id}`, contactPayload({ lastName: '' }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Last name is required');
    expect((await grace.client.patch(`/api/contacts/${c.id}`, { email: 'nope' })).status).toBe(400);
    expect((await grace.client.patch(`/api/contacts/${c.id}`, { metadata: { countryCode: '+99' } })).status).toBe(400);
    expect((await grace.client.patch('/api/contacts/abc', contactPayload())).status).toBe(400);
  });

  it('is partial: one field changes, every other field, flag, note and the staff role stay', async () => {
    const c = (
      await grace.client.post(
        '/api/contacts',
        contactPayload({
          phone: '(202) 555-0143',
          tags: ['choir'],
          metadata: {
            countryCode: '+1',
            dateOfBirth: '1980-02-03',
            notes: 'Brings flowers',
            isChurchMember: true,
            isBaptised: true,
            isServiceStaff: true,
            staffRole: 'elder',
            wwccNumber: 'W-1',
            city: 'Springfield',
          },
        }),
      )
    ).body;
    expect(c.phoneE164).toBe('+12025550143');

    const res = await grace.client.patch(`/api/contacts/${c.id}`, { lastName: 'Jones' });
    expect(res.status).toBe(200);
    const { lastName, updatedAt: _updatedAt, ...rest } = res.body;
    expect(lastName).toBe('Jones');
    const { lastName: _l, updatedAt: _u, ...before } = c;
    expect(rest).toEqual(before);

    // The form's old payload shape (names, email and phone without metadata) keeps the metadata too.
    const named = await grace.client.patch(`/api/contacts/${c.id}`, {
      firstName: c.firstName,
      lastName: 'Smith',
      email: c.email,
      phone: '(202) 555-0143',
    });
    expect(named.body.metadata).toEqual(c.metadata);
    expect(named.body.phoneE164).toBe('+12025550143');
  });

  it('merges metadata key by key and recomputes E.164 from the merged country code', async () => {
    const c = (
      await grace.client.post(
        '/api/contacts',
        contactPayload({
          phone: '7911 123456',
          metadata: { countryCode: '+61', isSeeker: true, notes: 'Met at café' },
        }),
      )
    ).body;
    const moved = await grace.client.patch(`/api/contacts/${c.id}`, { metadata: { countryCode: '+44' } });
    expect(moved.status).toBe(200);
    expect(moved.body.phone).toBe('7911 123456');
    expect(moved.body.phoneE164).toBe('+447911123456');
    expect(moved.body.metadata).toMatchObject({ countryCode: '+44', isSeeker: true, notes: 'Met at café' });

    const renumbered = await grace.client.patch(`/api/contacts/${c.id}`, { phone: '7700 900123' });
    expect(renumbered.body.phoneE164).toBe('+447700900123');

    const cleared = await grace.client.patch(`/api/contacts/${c.id}`, { metadata: { notes: null, isSeeker: false } });
    expect(cleared.body.metadata).toMatchObject({ countryCode: '+44', notes: null, isSeeker: false });
    expect((await grace.client.get(`/api/contacts/${c.id}`)).body.metadata.countryCode).toBe('+44');
  });

  it('keeps tags unless they are sent', async () => {
    const c = (await grace.client.post('/api/contacts', contactPayload({ tags: ['a', 'b'] }))).body;
    expect((await grace.client.patch(`/api/contacts/${c.id}`, { firstName: 'T' })).body.tags).toEqual(['a', 'b']);
    expect((await grace.client.patch(`/api/contacts/${c.id}`, { tags: [] })).body.tags).toEqual([]);
  });
});

describe('DELETE /api/contacts/{id}', () => {
  it('removes the contact with its memberships, family links and children', async () => {
    const a = (await grace.client.post('/api/contacts', contactPayload())).body;
    const b = (await grace.client.post('/api/contacts', contactPayload())).body;
    const list = (await grace.client.post('/api/contact-lists', { name: 'Choir', type: 'both' })).body;
    await grace.client.post(`/api/contact-lists/${list.id}/contacts/${a.id}`);
    await grace.client.post(`/api/contacts/${a.id}/family`, { relatedContactId: b.id, relationship: 'spouse' });
    await grace.client.post(`/api/contacts/${a.id}/children`, { name: 'Sam' });

    const res = await grace.client.delete(`/api/contacts/${a.id}`);
    expect(res.status).toBe(200);
    expect((await grace.client.get(`/api/contacts/${a.id}`)).status).toBe(404);
    expect((await grace.client.get(`/api/contact-lists/${list.id}/contacts`)).body).toEqual([]);
    expect((await grace.client.get(`/api/contacts/${b.id}/family`)).body).toEqual([]);
    expect(
      await app.db.selectFrom('contactChildren').select('id').where('parentContactId', '=', a.id).execute(),
    ).toEqual([]);
    expect((await grace.client.delete(`/api/contacts/${a.id}`)).status).toBe(404);
  });
});

describe('consent', () => {
  it('is changed by staff, recorded with when and how, and shown on the contact', async () => {
    const c = (await grace.client.post('/api/contacts', contactPayload())).body;
    const res = await grace.client.put(`/api/contacts/${c.id}/consent`, {
      channel: 'email',
      status: 'unsubscribed',
      note: 'Asked at the door',
    });
    expect(res.status).toBe(200);
    expect(res.body.consent.email).toMatchObject({ status: 'unsubscribed', source: 'staff' });
    expect(res.body.consent.email.changedAt).toBeTruthy();
    expect(res.body.consent.sms.status).toBe('subscribed');

    // Same status again records nothing new.
    await grace.client.put(`/api/contacts/${c.id}/consent`, { channel: 'email', status: 'unsubscribed' });
    await grace.client.put(`/api/contacts/${c.id}/consent`, { channel: 'sms', status: 'unsubscribed' });
    const history = await grace.client.get(`/api/contacts/${c.id}/consent`);
    expect(
      history.body.map((e: { channel: string; status: string; source: string }) => [e.channel, e.status, e.source]),
    ).toEqual([
      ['sms', 'unsubscribed', 'staff'],
      ['email', 'unsubscribed', 'staff'],
    ]);
    expect(history.body[1].note).toBe('Asked at the door');

    // Editing the contact keeps consent.
    const edited = await grace.client.patch(`/api/contacts/${c.id}`, contactPayload());
    expect(edited.body.consent.email.status).toBe('unsubscribed');
  });

  it('rejects an unknown channel or status', async () => {
    const c = (await grace.client.post('/api/contacts', contactPayload())).body;
    const res = await grace.client.put(`/api/contacts/${c.id}/consent`, { channel: 'fax', status: 'maybe' });
    expect(res.status).toBe(400);
    expect(res.body.issues.map((i: { path: string }) => i.path).sort()).toEqual(['channel', 'status']);
  });
});

describe('GET /api/contacts/duplicates', () => {
  it('names contacts with the same email or phone, in this church only', async () => {
    const c = (await grace.client.post('/api/contacts', contactPayload({ email: 'Dup@Example.org' }))).body;
    const res = await grace.client.get('/api/contacts/duplicates?email=dup%40example.org');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: c.id,
        firstName: c.firstName,
        lastName: 'Smith',
        email: 'Dup@Example.org',
        phone: c.phone,
        matchedOn: ['email'],
      },
    ]);
    expect((await grace.client.get(`/api/contacts/duplicates?email=dup%40example.org&excludeId=${c.id}`)).body).toEqual(
      [],
    );
    expect((await hope.client.get('/api/contacts/duplicates?email=dup%40example.org')).body).toEqual([]);
    expect((await grace.client.get('/api/contacts/duplicates?countryCode=%2B99')).status).toBe(400);
  });
});

describe("saving a possible duplicate (ifDuplicate: 'ask')", () => {
  it('answers 409 naming the contact with the same phone, and saves when told to', async () => {
    const church = await registerChurch(app.url, 'Duplicate Church');
    const other = await registerChurch(app.url, 'Other Church');
    const mary = { firstName: 'Mary', lastName: 'Jones', metadata: { countryCode: '+61' } };
    const first = await church.client.post('/api/contacts', {
      ...mary,
      email: 'mary@example.org',
      phone: '0412 000 111',
    });
    expect(first.status).toBe(201);
    // Another church's Mary is nobody's duplicate here.
    await other.client.post('/api/contacts', { ...mary, email: 'mj@example.org', phone: '0412 000 222' });

    // The same number typed differently: the lookup compares E.164.
    const second = { ...mary, email: 'mary.jones@example.org', phone: '+61 412 000 111', ifDuplicate: 'ask' };
    const asked = await church.client.post('/api/contacts', second);
    expect(asked.status).toBe(409);
    expect(asked.body).toEqual({
      message: 'A contact with this phone number already exists: Mary Jones.',
      code: 'CONFLICT',
      issues: [{ path: 'ifDuplicate', message: 'A contact with this phone number already exists: Mary Jones.' }],
    });
    expect((await church.client.get('/api/contacts')).body).toHaveLength(1);
    const fresh = { ...second, email: 'someone@example.org', phone: '0412 000 222' };
    expect((await church.client.post('/api/contacts', fresh)).status).toBe(201);
    const saved = await church.client.post('/api/contacts', { ...second, ifDuplicate: 'save' });
    expect(saved.status).toBe(201);
    expect((await church.client.get('/api/contacts')).body).toHaveLength(3);

    // An edit asks only when the email or phone changes to another contact's.
    const patch = (body: Record<string, unknown>) => church.client.patch(`/api/contacts/${saved.body.id}`, body);
    expect((await patch({ metadata: { notes: 'Choir' }, ifDuplicate: 'ask' })).status).toBe(200);
    const clash = await patch({ email: 'MARY@example.org', phone: '0499 999 999', ifDuplicate: 'ask' });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe('A contact with this email already exists: Mary Jones.');
    expect((await patch({ email: 'MARY@example.org', ifDuplicate: 'save' })).status).toBe(200);
    expect((await church.client.post('/api/contacts', { ...second, ifDuplicate: 'maybe' })).status).toBe(400);
  });
});

describe('POST /api/contacts/{id}/merge', () => {
  it('keeps one contact with both lists and deletes the other', async () => {
    const keep = (await grace.client.post('/api/contacts', contactPayload())).body;
    const other = (await grace.client.post('/api/contacts', contactPayload({ metadata: { isChurchMember: true } })))
      .body;
    const list = (await grace.client.post('/api/contact-lists', { name: 'Merge list', type: 'both' })).body;
    await grace.client.post(`/api/contact-lists/${list.id}/contacts/${other.id}`);

    const res = await grace.client.post(`/api/contacts/${keep.id}/merge`, { otherId: other.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mergedContactId: other.id, contact: { id: keep.id }, moved: { lists: 1 } });
    expect(res.body.contact.metadata.isChurchMember).toBe(true);
    expect((await grace.client.get(`/api/contacts/${other.id}`)).status).toBe(404);
    expect((await grace.client.get(`/api/contacts/${keep.id}/lists`)).body.map((l: { id: number }) => l.id)).toEqual([
      list.id,
    ]);
  });

  it("answers 400 for bad input or the same contact, 404 for another church's", async () => {
    const mine = (await grace.client.post('/api/contacts', contactPayload())).body;
    const theirs = (await hope.client.post('/api/contacts', contactPayload())).body;
    expect((await grace.client.post(`/api/contacts/${mine.id}/merge`, {})).status).toBe(400);
    expect((await grace.client.post(`/api/contacts/${mine.id}/merge`, { otherId: 'x' })).status).toBe(400);
    const same = await grace.client.post(`/api/contacts/${mine.id}/merge`, { otherId: mine.id });
    expect(same.status).toBe(400);
    expect(same.body.message).toBe('Choose a different contact to merge with');
    expect((await grace.client.post(`/api/contacts/${mine.id}/merge`, { otherId: theirs.id })).status).toBe(404);
    expect((await grace.client.post(`/api/contacts/${theirs.id}/merge`, { otherId: mine.id })).status).toBe(404);
    expect((await hope.client.get(`/api/contacts/${theirs.id}`)).status).toBe(200);
  });
});
