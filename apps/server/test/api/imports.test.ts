import { describe, expect, it } from 'vitest';
import { ownerDb, sql } from '@lampstand/db';
import { runMoveInImport } from '@lampstand/api/server';
import { pdfText } from '../helpers/giving.js';
import { moveIn, moveInFixture } from '../helpers/move-in.js';
import { registerChurch, startTestApp } from '../helpers/test-app.js';

const app = await startTestApp();
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
const breezeChurch = await registerChurch(app.url, 'Breeze Church');

const { upload, committed, contacts } = moveIn(app.url);
const fixture = moveInFixture;

const ledgerCount = async (tenant: number) =>
  Number(
    (
      await app.db
        .selectFrom('gifts')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('userId', '=', tenant)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('moving in from Planning Center', () => {
  let peopleId = 0;
  it('recognises the people export and previews it without writing anything', async () => {
    expect((await grace.client.put('/api/settings', { defaultCountryCode: '+1' })).status).toBe(200);
    const existing = await grace.client.post('/api/contacts', {
      firstName: 'Grace',
      lastName: 'Okafor',
      email: 'GRACE.okafor@example.org',
      phone: '(512) 555-0999',
    });
    expect(existing.status, existing.text).toBe(201);
    const before = (await contacts(grace.client)).length;
    const res = await upload(grace.client, fixture('planning-center-people.csv'), 'people.csv');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    peopleId = res.body.id;
    expect(res.body).toMatchObject({
      source: 'planning-center-people',
      sourceLabel: 'Planning Center People export',
      kind: 'people',
      status: 'previewed',
    });
    expect(res.body.preview.people).toMatchObject({
      new: 4,
      matched: 1,
      changed: 1,
      skipped: 2,
      households: 4,
      children: 2,
    });
    expect(res.body.preview.people.changes[0]).toMatchObject({ name: 'Grace Okafor', fields: ['birthDate', 'notes'] });
    expect(res.body.preview.problems).toEqual([
      { line: 10, column: 'First Name', reason: 'The row has no name' },
      { line: 11, column: 'Birthdate', reason: expect.stringContaining("'31/31/2020' is not a date") },
    ]);
    expect((await contacts(grace.client)).length).toBe(before);
    const problems = await grace.client.get(`/api/imports/${peopleId}/problems`);
    expect(problems.body.csv).toContain('Line,Column,Problem');
    expect(problems.body.csv).toContain('11,Birthdate,');
  });

  it('commits people, households, children and consent as the source states it', async () => {
    const done = await committed(grace.client, peopleId);
    expect(done.report.people).toEqual({ created: 4, updated: 1, unchanged: 0 });
    const all = await contacts(grace.client);
    const jose = all.find((c) => c.firstName === 'José')!;
    const zoe = all.find((c) => c.firstName === 'Zoë')!;
    const okafor = all.filter((c) => c.lastName === 'Okafor');
    expect(jose).toMatchObject({
      lastName: 'Muñoz',
      email: 'jose.munoz@example.org',
      consent: { email: { status: 'subscribed' } },
    });
    // Sharing José's email: created, and not subscribed (the file does not say she opted in).
    expect(zoe).toMatchObject({ email: 'jose.munoz@example.org', consent: { email: { status: 'unsubscribed' } } });
    expect(okafor).toHaveLength(1);
    // Fill empty only (the default): her phone stays ours.
    expect(okafor[0]).toMatchObject({ consent: { email: { status: 'unsubscribed' } }, phone: '(512) 555-0999' });
    expect(all.some((c) => c.firstName === 'Mateo' || c.firstName === 'Ava')).toBe(false);
    const family = (await grace.client.get(`/api/contacts/${jose.id}/family`)).body;
    expect(family.map((f: { contact: { firstName: string } }) => f.contact.firstName)).toEqual(['Zoë']);
    const kids = (await grace.client.get(`/api/contacts/${jose.id}/children`)).body;
    expect(kids).toMatchObject([{ name: 'Mateo Muñoz', dateOfBirth: '2015-06-01' }]);
    // Ava is in two households: a child of each household's primary contact.
    const sam = all.find((c) => c.firstName === 'Sam')!;
    const jin = all.find((c) => c.firstName === 'Jin')!;
    expect((await grace.client.get(`/api/contacts/${sam.id}/children`)).body).toMatchObject([{ name: 'Ava Lee' }]);
    expect((await grace.client.get(`/api/contacts/${jin.id}/children`)).body).toMatchObject([{ name: 'Ava Lee' }]);
    const consent = (await grace.client.get(`/api/contacts/${zoe.id}/consent`)).body;
    expect(consent).toContainEqual(
      expect.objectContaining({ channel: 'email', status: 'unsubscribed', source: 'Planning Center' }),
    );
    const detail = (await grace.client.get(`/api/contacts/${jose.id}`)).body;
    expect(detail.metadata.notes).toContain('Membership: Member');
  });

  it('running the same file again changes nothing', async () => {
    const count = (await contacts(grace.client)).length;
    const again = await upload(grace.client, fixture('planning-center-people.csv'), 'people.csv');
    expect(again.body.preview.people).toMatchObject({ new: 0, matched: 5, changed: 0 });
    const done = await committed(grace.client, again.body.id);
    expect(done.report.people).toEqual({ created: 0, updated: 0, unchanged: 5 });
    expect((await contacts(grace.client)).length).toBe(count);
    const jose = (await contacts(grace.client)).find((c) => c.firstName === 'José')!;
    expect((await grace.client.get(`/api/contacts/${jose.id}/children`)).body).toHaveLength(1);
  });

  it('imports donations to the cent, matched by the person id, with refunds off the totals', async () => {
    const res = await upload(grace.client, fixture('planning-center-donations.csv'), 'donations.csv');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.source).toBe('planning-center-donations');
    const gifts = res.body.preview.gifts;
    expect(gifts).toMatchObject({
      count: 6,
      refunds: 1,
      totalCents: 135000 + 12000 + 5000,
      donorsMatched: 2,
      donorsNotFound: 1,
    });
    expect(gifts.totals).toEqual([
      { fund: 'Building Fund', year: 2025, count: 2, cents: 0 },
      { fund: 'General Fund', year: 2024, count: 2, cents: 135000 },
      { fund: 'General Fund', year: 2025, count: 2, cents: 12000 },
      { fund: 'Missions', year: 2024, count: 1, cents: 5000 },
    ]);
    expect(gifts.funds.find((f: { name: string }) => f.name === 'Missions')).toEqual({ name: 'Missions', isNew: true });
    expect(res.body.preview.problems).toEqual([]);
    const done = await committed(grace.client, res.body.id);
    for (const t of done.report.totals) expect(t.ledgerCents).toBe(t.fileCents);
    expect(done.report.fundsCreated).toEqual(expect.arrayContaining(['Missions', 'Building Fund']));
    const jose = (await contacts(grace.client)).find((c) => c.firstName === 'José')!;
    // On José's statement for 2024: $1,250.00 and $50.00.
    const cookie = [...grace.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const statement = await fetch(`${app.url}/api/giving/donors/${jose.id}/statement?from=2024-01-01&to=2024-12-31`, {
      headers: { cookie },
    });
    expect(statement.status).toBe(200);
    expect(await pdfText(Buffer.from(await statement.arrayBuffer()))).toContain('1,300.00');
    // No receipt was queued and no donation event written for the imported gifts.
    const events = await app.db.selectFrom('events').select('type').where('type', 'like', 'donation.%').execute();
    expect(events).toEqual([]);
  });

  it('running the donations file again adds nothing to the ledger', async () => {
    const church = await app.db
      .selectFrom('gifts')
      .select('userId')
      .where('importId', 'is not', null)
      .executeTakeFirstOrThrow();
    const before = await ledgerCount(church.userId);
    const again = await upload(grace.client, fixture('planning-center-donations.csv'), 'donations.csv');
    const done = await committed(grace.client, again.body.id);
    for (const t of done.report.totals) expect(t.ledgerCents).toBe(t.fileCents);
    expect(await ledgerCount(church.userId)).toBe(before);
  });

  it('lists unreadable amounts and dates by row and column, and refuses to commit them', async () => {
    const res = await upload(grace.client, fixture('planning-center-donations-bad.csv'), 'bad.csv');
    expect(res.status).toBe(201);
    expect(res.body.preview.problems).toEqual([
      { line: 3, column: 'Amount', reason: expect.stringContaining("'12,50' uses a decimal comma") },
      { line: 4, column: 'Received At', reason: expect.stringContaining("'someday' is not a date") },
    ]);
    const commit = await grace.client.post(`/api/imports/${res.body.id}/commit`, {});
    expect(commit.status).toBe(400);
    expect(commit.body.message).toMatch(/^Row 3, column Amount: '12,50' uses a decimal comma/);
    expect((await grace.client.get(`/api/imports/${res.body.id}`)).body.status).toBe('previewed');
  });

  it('one import at a time per church (409), another church’s import is 404', async () => {
    const a = await upload(grace.client, fixture('planning-center-people.csv'), 'people.csv');
    const b = await upload(grace.client, fixture('planning-center-people.csv'), 'people.csv');
    await app.db
      .updateTable('imports')
      .set({ status: 'running', progressAt: new Date() })
      .where('id', '=', a.body.id)
      .execute();
    const busy = await grace.client.post(`/api/imports/${b.body.id}/commit`, {});
    expect(busy.status).toBe(409);
    expect(busy.body.message).toBe('Another import is running for this church; confirm this one when it has finished');
    await app.db.updateTable('imports').set({ status: 'failed' }).where('id', '=', a.body.id).execute();
    expect((await hope.client.get(`/api/imports/${b.body.id}`)).status).toBe(404);
    expect((await hope.client.post(`/api/imports/${b.body.id}/commit`, {})).status).toBe(404);
    expect((await hope.client.get(`/api/imports/${b.body.id}/problems`)).status).toBe(404);
  });

  it('refuses a file that is not CSV, an unknown header, a wrong source and an oversized file, with words', async () => {
    const pdf = await upload(grace.client, Buffer.from('%PDF-1.4\n\u0000binary'), 'statement.pdf');
    expect(pdf.status).toBe(400);
    expect(pdf.body.message).toBe('This file is not a CSV file: export it from the other system as CSV');
    const unknown = await upload(grace.client, Buffer.from('Foo,Bar\n1,2\n'), 'foo.csv');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/does not match an export from Planning Center, Breeze, ChurchCRM or Elvanto/);
    const wrong = await upload(grace.client, fixture('breeze-people.csv'), 'x.csv', {
      source: 'planning-center-people',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(
      "This is not a Planning Center People export: its header row has no column 'Person ID'",
    );
    const big = await upload(grace.client, Buffer.alloc(51 * 1024 * 1024, 'a'), 'big.csv');
    expect(big.status).toBe(413);
  });
});

describe('moving in from Breeze and a spreadsheet', () => {
  it('imports Breeze people with spouse and child, then contributions matched by Breeze id', async () => {
    const people = await upload(breezeChurch.client, fixture('breeze-people.csv'), 'breeze.csv');
    expect(people.status, JSON.stringify(people.body)).toBe(201);
    expect(people.body.sourceLabel).toBe('Breeze people export');
    expect(people.body.preview.people).toMatchObject({ new: 3, matched: 0, households: 2, children: 1, skipped: 0 });
    await committed(breezeChurch.client, people.body.id);
    const all = await contacts(breezeChurch.client);
    const elodie = all.find((c) => c.firstName === 'Élodie')!;
    expect(elodie.consent.email.status).toBe('subscribed');
    expect(all.find((c) => c.firstName === 'Ruth')!.consent.email.status).toBe('unsubscribed');
    const family = (await breezeChurch.client.get(`/api/contacts/${elodie.id}/family`)).body;
    expect(family).toMatchObject([{ relationship: 'spouse', contact: { firstName: 'Marcus' } }]);
    expect((await breezeChurch.client.get(`/api/contacts/${elodie.id}/children`)).body).toMatchObject([
      { name: 'Lily Fairbanks', dateOfBirth: '2016-05-05' },
    ]);

    const gifts = await upload(breezeChurch.client, fixture('breeze-contributions.csv'), 'contributions.csv');
    expect(gifts.body.sourceLabel).toBe('Breeze contributions export');
    expect(gifts.body.preview.gifts).toMatchObject({ count: 3, refunds: 1, donorsMatched: 3, donorsNotFound: 0 });
    expect(gifts.body.preview.gifts.totals).toEqual([
      { fund: 'Benevolence', year: 2024, count: 2, cents: 0 },
      { fund: 'Tithe', year: 2024, count: 2, cents: 204000 },
    ]);
    const done = await committed(breezeChurch.client, gifts.body.id);
    expect(done.report.totals).toEqual([
      { fund: 'Benevolence', year: 2024, fileCents: 0, ledgerCents: 0 },
      { fund: 'Tithe', year: 2024, fileCents: 204000, ledgerCents: 204000 },
    ]);
  });

  it('reads a generic CSV through a saved preset', async () => {
    const preset = await hope.client.post('/api/import-presets', {
      name: 'Old spreadsheet',
      kind: 'people',
      mapping: { externalId: 'Member #', firstName: 'Given', lastName: 'Family name', email: 'E-mail', phone: 'Cell' },
    });
    expect(preset.status, JSON.stringify(preset.body)).toBe(201);
    const res = await upload(hope.client, fixture('spreadsheet-people.csv'), 'sheet.csv', {
      presetId: String(preset.body.id),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      source: 'preset',
      sourceLabel: "CSV read with the saved mapping 'Old spreadsheet'",
    });
    expect(res.body.preview.people).toMatchObject({ new: 2 });
    await committed(hope.client, res.body.id);
    const priya = (await contacts(hope.client)).find((c) => c.firstName === 'Priya')!;
    expect((await hope.client.get(`/api/contacts/${priya.id}`)).body.metadata.notes).toBe('Small group: Tuesday');
    // Another church's preset is not this church's.
    const other = await upload(grace.client, fixture('spreadsheet-people.csv'), 'sheet.csv', {
      presetId: String(preset.body.id),
    });
    expect(other.status).toBe(404);
  });
});

describe('a restarted import', () => {
  it('resumes after the last committed batch: everyone once, nobody twice', async () => {
    const church = await registerChurch(app.url, 'Restart Church');
    const res = await upload(church.client, fixture('planning-center-people.csv'), 'people.csv');
    expect(res.status).toBe(201);
    // Queued as Confirm queues it, but run here (no job) with batches of two people.
    await app.db.updateTable('imports').set({ status: 'queued' }).where('id', '=', res.body.id).execute();
    // The process dies while writing the second batch (Grace Okafor, the third person).
    const owner = ownerDb(app.db);
    await sql`create function fail_grace() returns trigger language plpgsql as $$
      begin if new.first_name = 'Grace' then raise exception 'the server went away'; end if; return new; end $$`.execute(
      owner,
    );
    await sql`create trigger fail_grace before insert on contacts for each row execute function fail_grace()`.execute(
      owner,
    );
    await expect(runMoveInImport(app.db, res.body.id, { batchSize: 2 })).rejects.toThrow('the server went away');
    const stopped = (await church.client.get(`/api/imports/${res.body.id}`)).body;
    expect(stopped).toMatchObject({ status: 'failed', processedRows: 2 });
    expect((await contacts(church.client)).map((c) => c.firstName).sort()).toEqual(['José', 'Zoë']);
    await sql`drop trigger fail_grace on contacts`.execute(owner);
    await sql`drop function fail_grace()`.execute(owner);
    // pg-boss retries the job: it resumes at the third person, each batch taking its turn on the
    // worker's pacer first (a person's row is a unit). Reading the file again, before the batches,
    // takes turns on the same pacer for its own work (a unit a millisecond; none on a fast read).
    const turns: number[] = [];
    const pacer = { take: async (units: number) => void turns.push(units) };
    await runMoveInImport(app.db, res.body.id, { batchSize: 2, pacer });
    expect(turns.slice(-3)).toEqual([2, 2, 1]);
    const done = (await church.client.get(`/api/imports/${res.body.id}`)).body;
    expect(done).toMatchObject({ status: 'completed', processedRows: 7 });
    expect(done.report.people).toEqual({ created: 5, updated: 0, unchanged: 0 });
    expect((await contacts(church.client)).map((c) => c.firstName).sort()).toEqual([
      'Grace',
      'Jin',
      'José',
      'Sam',
      'Zoë',
    ]);
  });
});
