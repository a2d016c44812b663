import { describe, expect, it } from 'vitest';
import { IMPORT_BUSY } from '@lampstand/api/server';
import { addContact, registerChurch, startTestApp, type HttpClient } from '../helpers/test-app.js';

const app = await startTestApp();
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');

async function waitForImport(client: HttpClient, id: number) {
  for (let i = 0; i < 200; i++) {
    const res = await client.get(`/api/contacts/import/${id}`);
    if (res.body.status === 'completed' || res.body.status === 'failed') return res.body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('import did not finish');
}

describe('CSV import', () => {
  it('previews, suggests a mapping, imports in the background, matches by email then phone, reports skipped lines', async () => {
    // Already here: one by email, one by phone, one who unsubscribed from email.
    const byEmail = await addContact(grace.client, {
      firstName: 'Old',
      lastName: 'Name',
      email: 'anna@example.org',
      phone: '0400000001',
    });
    const byPhone = await addContact(grace.client, {
      firstName: 'Phil',
      lastName: 'Phone',
      email: 'phil@old.org',
      phone: '0400 000 002',
    });
    const unsub = await addContact(grace.client, {
      firstName: 'Una',
      lastName: 'Sub',
      email: 'una@example.org',
      phone: '0400000003',
    });
    await grace.client.put(`/api/contacts/${unsub.id}/consent`, { channel: 'email', status: 'unsubscribed' });
    // Another church's contact with the same email must not be touched.
    const other = await addContact(hope.client, {
      firstName: 'Hope',
      lastName: 'Anna',
      email: 'anna@example.org',
      phone: '0400000001',
    });
    const list = (await grace.client.post('/api/contact-lists', { name: 'Imported', type: 'both' })).body;

    const csv = [
      'First Name,Surname,E-mail,Mobile,Member,Email Consent,Notes',
      'Anna,New,ANNA@example.org,,yes,,"Sings, loudly"',
      'Philip,Phone,,+61 400 000 002,no,,',
      'Una,Sub,una@example.org,,yes,subscribed,',
      ',Nofirst,x@example.org,,,,',
      'Bad,Email,not-an-email,,,,',
      'No,Contact,,,,,',
      'Zed,Brand,zed@example.org,0411 222 333,yes,unsubscribed,"line one',
      'line two"',
      'Zed,Again,ZED@example.org,,,,',
    ].join('\r\n');
    const upload = await grace.client.post('/api/contacts/import', { fileName: 'members.csv', csv });
    expect(upload.status).toBe(201);
    expect(upload.body).toMatchObject({
      status: 'uploaded',
      totalRows: 8,
      headers: ['First Name', 'Surname', 'E-mail', 'Mobile', 'Member', 'Email Consent', 'Notes'],
      suggestedMapping: {
        'First Name': 'firstName',
        Surname: 'lastName',
        'E-mail': 'email',
        Mobile: 'phone',
        Member: 'isChurchMember',
        'Email Consent': 'emailConsent',
        Notes: 'notes',
      },
    });
    expect(upload.body.preview[0]).toEqual(['Anna', 'New', 'ANNA@example.org', '', 'yes', '', 'Sings, loudly']);

    const started = await grace.client.post(`/api/contacts/import/${upload.body.id}/start`, {
      mapping: upload.body.suggestedMapping,
      listId: list.id,
    });
    expect(started.status).toBe(200);
    expect(started.body.status).toBe('queued');
    expect(
      (
        await grace.client.post(`/api/contacts/import/${upload.body.id}/start`, {
          mapping: upload.body.suggestedMapping,
        })
      ).status,
    ).toBe(409);

    const done = await waitForImport(grace.client, upload.body.id);
    expect(done).toMatchObject({ status: 'completed', processedRows: 8, createdCount: 1, updatedCount: 3 });
    expect(done.skipped).toEqual([
      { line: 5, reason: 'First name is required' },
      { line: 6, reason: "Please enter a valid email address: 'not-an-email'" },
      { line: 7, reason: 'No email address or phone number' },
      { line: 10, reason: 'Same person as line 8' },
    ]);

    const anna = (await grace.client.get(`/api/contacts/${byEmail.id}`)).body;
    expect(anna).toMatchObject({
      firstName: 'Anna',
      lastName: 'New',
      phone: '0400000001',
      metadata: { isChurchMember: true, notes: 'Sings, loudly' },
    });
    const phil = (await grace.client.get(`/api/contacts/${byPhone.id}`)).body;
    expect(phil).toMatchObject({ firstName: 'Philip', email: 'phil@old.org', phoneE164: '+61400000002' });
    const una = (await grace.client.get(`/api/contacts/${unsub.id}`)).body;
    expect(una.consent.email.status).toBe('unsubscribed'); // never re-subscribed
    const zed = (await grace.client.get('/api/contacts/search?search=zed')).body.items;
    expect(zed).toHaveLength(1);
    expect(zed[0]).toMatchObject({
      lastName: 'Brand',
      consent: { email: { status: 'unsubscribed', source: 'import' } },
      metadata: { notes: 'line one\nline two' },
    });
    const zedHistory = (await grace.client.get(`/api/contacts/${zed[0].id}/consent`)).body;
    expect(zedHistory).toMatchObject([
      { channel: 'email', status: 'unsubscribed', source: 'import', note: 'members.csv' },
    ]);

    const members = (await grace.client.get(`/api/contact-lists/${list.id}/contacts`)).body
      .map((c: { id: number }) => c.id)
      .sort();
    expect(members).toEqual([byEmail.id, byPhone.id, unsub.id, zed[0].id].sort());
    expect((await hope.client.get(`/api/contacts/${other.id}`)).body).toMatchObject({
      firstName: 'Hope',
      lastName: 'Anna',
    });
  });

  it("reads a phone without a country in the church's default country", async () => {
    const us = await registerChurch(app.url, 'Bay Church');
    expect((await us.client.put('/api/settings', { defaultCountryCode: '+1' })).status).toBe(200);
    const csv = ['First Name,Last Name,Phone,Country Code', 'Ann,Arbor,4155550100,', 'Ben,Bristol,7911 123456,44'].join(
      '\n',
    );
    const upload = await us.client.post('/api/contacts/import', { fileName: 'us.csv', csv });
    expect(upload.status).toBe(201);
    const started = await us.client.post(`/api/contacts/import/${upload.body.id}/start`, {
      mapping: { 'First Name': 'firstName', 'Last Name': 'lastName', Phone: 'phone', 'Country Code': 'countryCode' },
    });
    expect(started.status, started.text).toBe(200);
    expect(await waitForImport(us.client, upload.body.id)).toMatchObject({ status: 'completed', createdCount: 2 });
    const ann = (await us.client.get('/api/contacts/search?search=arbor')).body.items[0];
    expect(ann).toMatchObject({ phoneE164: '+14155550100', metadata: { countryCode: '+1' } });
    const ben = (await us.client.get('/api/contacts/search?search=bristol')).body.items[0];
    expect(ben).toMatchObject({ phoneE164: '+447911123456', metadata: { countryCode: '+44' } });
  });

  it('validates the mapping', async () => {
    const upload = (
      await grace.client.post('/api/contacts/import', { fileName: 'a.csv', csv: 'Name,Email\nA,a@b.org\n' })
    ).body;
    const res = await grace.client.post(`/api/contacts/import/${upload.id}/start`, {
      mapping: { Name: 'firstName', Email: 'email' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Map a column to First Name and one to Last Name');
    const unknownColumn = await grace.client.post(`/api/contacts/import/${upload.id}/start`, {
      mapping: { Name: 'firstName', Nope: 'lastName', Email: 'email' },
    });
    expect(unknownColumn.status).toBe(400);
    expect(unknownColumn.body.message).toBe("The file has no column named 'Nope'");
  });

  it('rejects an empty file, one with only a header, and a missing file', async () => {
    expect((await grace.client.post('/api/contacts/import', { fileName: 'a.csv', csv: '' })).body.message).toBe(
      'The file is empty',
    );
    expect(
      (await grace.client.post('/api/contacts/import', { fileName: 'a.csv', csv: 'First Name,Last Name\n' })).body
        .message,
    ).toBe('The file has a header row but no contacts');
    expect((await grace.client.post('/api/contacts/import', { fileName: 'a.csv' })).body.message).toBe(
      'Please choose a CSV file',
    );
  });

  it("another church's import is a 404, and its list cannot be the target", async () => {
    const upload = (
      await grace.client.post('/api/contacts/import', { fileName: 'a.csv', csv: 'First,Last,Email\nA,B,a@b.org\n' })
    ).body;
    expect((await hope.client.get(`/api/contacts/import/${upload.id}`)).status).toBe(404);
    expect(
      (
        await hope.client.post(`/api/contacts/import/${upload.id}/start`, {
          mapping: { First: 'firstName', Last: 'lastName', Email: 'email' },
        })
      ).status,
    ).toBe(404);
    const theirList = (await hope.client.post('/api/contact-lists', { name: 'Theirs' })).body;
    const res = await grace.client.post(`/api/contacts/import/${upload.id}/start`, {
      mapping: { First: 'firstName', Last: 'lastName', Email: 'email' },
      listId: theirList.id,
    });
    expect(res.status).toBe(404);
  });

  it('says how many households a column will make; only to the importing church', async () => {
    const csv = 'First,Last,Email,Home\nA,Lee,a@lee.org,Lee\nB,Lee,b@lee.org,lee\nC,Ng,c@ng.org,Ng\n';
    const upload = (await grace.client.post('/api/contacts/import', { fileName: 'homes.csv', csv })).body;
    const res = await grace.client.get(`/api/contacts/import/${upload.id}/households?column=Home`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ households: 1, people: 2, tooLarge: 0 });
    expect((await grace.client.get(`/api/contacts/import/${upload.id}/households?column=Nope`)).status).toBe(400);
    expect((await hope.client.get(`/api/contacts/import/${upload.id}/households?column=Home`)).status).toBe(404);
  });
});

describe('imports at once per church', () => {
  it('answers 429 with Retry-After while an import of the church runs (in any process); another church can start', async () => {
    const church = await registerChurch(app.url, 'Busy Church');
    const csv = 'First,Last,Email\nA,B,a@b.org\n';
    const mapping = { First: 'firstName', Last: 'lastName', Email: 'email' };
    const running = (await church.client.post('/api/contacts/import', { fileName: 'a.csv', csv })).body;
    const next = (await church.client.post('/api/contacts/import', { fileName: 'b.csv', csv })).body;
    // As a worker in another process would leave it: running, with recent progress.
    await app.db
      .updateTable('contactImports')
      .set({ status: 'running', mapping: JSON.stringify(mapping), progressAt: new Date() })
      .where('id', '=', running.id)
      .execute();

    const refused = await church.client.post(`/api/contacts/import/${next.id}/start`, { mapping });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: IMPORT_BUSY, code: 'TOO_MANY_REQUESTS' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await church.client.get(`/api/contacts/import/${next.id}`)).body.status).toBe('uploaded');

    const theirs = (await hope.client.post('/api/contacts/import', { fileName: 'h.csv', csv })).body;
    expect((await hope.client.post(`/api/contacts/import/${theirs.id}/start`, { mapping })).status).toBe(200);

    // A worker that died long ago no longer holds the church up.
    await app.db
      .updateTable('contactImports')
      .set({ progressAt: new Date(Date.now() - 11 * 60_000) })
      .where('id', '=', running.id)
      .execute();
    expect((await church.client.post(`/api/contacts/import/${next.id}/start`, { mapping })).status).toBe(200);
    expect(await waitForImport(church.client, next.id)).toMatchObject({ status: 'completed', createdCount: 1 });
  });
});

describe('CSV export', () => {
  it('exports all contacts or one list, and the file imports again with every column mapped', async () => {
    const church = await registerChurch(app.url, 'Export Church');
    const a = await addContact(church.client, {
      firstName: 'Amy',
      lastName: 'Adams',
      email: 'amy@example.org',
      phone: '0412 000 111',
      tags: ['choir'],
      metadata: { isChurchMember: true, dateOfBirth: '1985-05-06', notes: '=HYPERLINK("x")' },
    });
    await church.client.post('/api/contacts', {
      firstName: 'Bob',
      lastName: 'Brown',
      email: 'bob@example.org',
      phone: '0412 000 222',
    });
    const list = (await church.client.post('/api/contact-lists', { name: 'Choir Members' })).body;
    await church.client.post(`/api/contact-lists/${list.id}/contacts/${a.id}`);

    const all = await church.client.get('/api/contacts/export');
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toMatch(/text\/csv/);
    expect(all.headers.get('content-disposition')).toMatch(/attachment; filename="contacts-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = all.text.trim().split('\n');
    expect(lines[0]).toMatch(
      /^First Name,Last Name,Email,Phone Number,Country Code,Date of Birth,Tags,Notes,Church Member/,
    );
    expect(lines).toHaveLength(3);
    // The phone as E.164 and the country code bare (a + followed by digits runs nothing); every other
    // cell starting with = + - @ is prefixed, and the importer drops the apostrophe.
    expect(lines[1]).toContain('Amy,Adams,amy@example.org,+61412000111,+61,1985-05-06,choir');
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`); // no formula runs in a spreadsheet

    const one = await church.client.get(`/api/contacts/export?listId=${list.id}`);
    expect(one.headers.get('content-disposition')).toMatch(/choir-members-/);
    expect(one.text.trim().split('\n')).toHaveLength(2);
    expect((await grace.client.get(`/api/contacts/export?listId=${list.id}`)).status).toBe(404);

    const upload = (await grace.client.post('/api/contacts/import', { fileName: 'roundtrip.csv', csv: all.text })).body;
    expect(Object.keys(upload.suggestedMapping)).toHaveLength(upload.headers.length);
    // Imported again elsewhere: the same number, the same notes.
    const again = await registerChurch(app.url, 'Round Trip Church');
    const reupload = (await again.client.post('/api/contacts/import', { fileName: 'roundtrip.csv', csv: all.text }))
      .body;
    const started = await again.client.post(`/api/contacts/import/${reupload.id}/start`, {
      mapping: reupload.suggestedMapping,
    });
    expect(started.status, started.text).toBe(200);
    expect(await waitForImport(again.client, reupload.id)).toMatchObject({ status: 'completed', createdCount: 2 });
    const amy = (await again.client.get('/api/contacts/search?search=adams')).body.items[0];
    expect(amy).toMatchObject({
      phone: '+61412000111',
      phoneE164: '+61412000111',
      metadata: { countryCode: '+61', notes: '=HYPERLINK("x")' },
    });
  });
});
