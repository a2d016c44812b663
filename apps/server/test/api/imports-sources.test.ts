import { describe, expect, it } from 'vitest';
import { moveIn, moveInFixture as fixture } from '../helpers/move-in.js';
import { addContact, registerChurch, type HttpClient } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';

/**
 * Moving in from ChurchCRM and Elvanto (their people exports, fixtures written from the columns
 * sources.ts lists), and Breeze contributions that split a gift between funds in one cell.
 */

const app = await sharedTestApp();
const { upload, committed, contacts } = moveIn(app.url);

/** What the import stored on a contact: the phone in E.164 and the birth date. */
const stored = (id: number) =>
  app.db.selectFrom('contacts').select(['phoneE164', 'dateOfBirth']).where('id', '=', id).executeTakeFirstOrThrow();
const phoneE164 = async (id: number) => (await stored(id)).phoneE164;

async function familyOf(client: HttpClient, id: number) {
  const family = (await client.get(`/api/contacts/${id}/family`)).body as {
    relationship: string;
    contact: { firstName: string };
  }[];
  const children = (await client.get(`/api/contacts/${id}/children`)).body as { name: string; dateOfBirth: string }[];
  return {
    family: family.map((f) => `${f.contact.firstName}: ${f.relationship}`).sort(),
    children: children.map((c) => `${c.name} ${c.dateOfBirth ?? ''}`.trim()).sort(),
  };
}

describe('moving in from ChurchCRM', () => {
  it('recognises the people export and previews families split across rows, a child in two, shared emails', async () => {
    const church = await registerChurch(app.url, 'Springfield Church');
    expect((await church.client.put('/api/settings', { defaultCountryCode: '+1' })).status).toBe(200);
    await addContact(church.client, {
      firstName: 'Wei',
      lastName: 'Chen',
      email: 'Wei.Chen@example.org',
      phone: '(217) 555-0999',
    });

    const res = await upload(church.client, fixture('churchcrm-people.csv'), 'churchcrm-export.csv');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      source: 'churchcrm-people',
      sourceLabel: 'ChurchCRM people export',
      kind: 'people',
    });
    expect(res.body.preview.people).toMatchObject({
      new: 5,
      matched: 1,
      changed: 1,
      skipped: 2,
      households: 3,
      children: 2,
    });
    expect(res.body.preview.people.changes).toEqual([{ line: 6, name: 'Wei Chen', fields: ['birthDate', 'notes'] }]);
    expect(res.body.preview.problems).toEqual([
      { line: 11, column: 'First Name', reason: 'The row has no name' },
      { line: 12, column: 'Birth Date', reason: expect.stringContaining("'31-12-1990' is not a date") },
    ]);
    expect(await contacts(church.client)).toHaveLength(1);

    const done = await committed(church.client, res.body.id);
    expect(done.report.people).toEqual({ created: 5, updated: 1, unchanged: 0 });
    const all = await contacts(church.client);
    const by = (first: string) => all.find((c) => c.firstName === first)!;
    expect(all.map((c) => `${c.firstName} ${c.lastName}`).sort()).toEqual([
      'Aoife Brennan',
      'María Álvarez',
      'Seán Brennan',
      'Thảo Nguyễn',
      'Wei Chen',
      'Zofia Kowalski',
    ]);
    // The household split by the file's order by last name is one family; Lucía is María's child.
    expect(await familyOf(church.client, by('María').id)).toEqual({
      family: ['Wei: spouse'],
      children: ['Lucía Chen-Álvarez 2014-06-01'],
    });
    // Ava, in two families: a child of each family's head.
    expect(await familyOf(church.client, by('Seán').id)).toEqual({
      family: ['Aoife: spouse'],
      children: ['Ava Brennan 2015-09-03'],
    });
    expect((await familyOf(church.client, by('Zofia').id)).children).toEqual(['Ava Brennan 2015-09-03']);
    // Sharing an email: both created, each with it.
    expect(by('Aoife').email).toBe('brennan.family@example.org');
    expect(by('Seán').email).toBe('brennan.family@example.org');
    // Phones as ChurchCRM formats them, in the church's country (+1).
    expect(await phoneE164(by('María').id)).toBe('+12175550101');
    expect(await phoneE164(by('Seán').id)).toBe('+12175550140');
    expect(await phoneE164(by('Zofia').id)).toBe('+12175550160');
    expect(await phoneE164(by('Thảo').id)).toBe('+12175550170');
    // A birthday without its year is kept in the notes; an unknown one ('-', '1990-0-0') is no date.
    const aoife = (await church.client.get(`/api/contacts/${by('Aoife').id}`)).body;
    expect((await stored(by('Aoife').id)).dateOfBirth).toBeNull();
    expect((await stored(by('María').id)).dateOfBirth).toBe('1981-03-09');
    expect(aoife.metadata.notes).toContain('Birth Date: 4-12');
    expect((await stored(by('Zofia').id)).dateOfBirth).toBeNull();
    // Fill empty only (the default): Wei's phone stays the church's.
    expect(await phoneE164(by('Wei').id)).toBe('+12175550999');
    // The export states no consent: nobody it brings is subscribed, and Wei's consent stays as the church had it.
    for (const c of all) expect(c.consent.email.status).toBe(c.firstName === 'Wei' ? 'subscribed' : 'unsubscribed');
    const consent = (await church.client.get(`/api/contacts/${by('María').id}/consent`)).body;
    expect(consent).toContainEqual(
      expect.objectContaining({ channel: 'email', status: 'unsubscribed', source: 'ChurchCRM' }),
    );

    const again = await upload(church.client, fixture('churchcrm-people.csv'), 'churchcrm-export.csv');
    expect(again.body.preview.people).toMatchObject({ new: 0, matched: 6, changed: 0 });
  });
});

describe('moving in from Elvanto', () => {
  it('reads families from Family ID and Family Relationship, phones in the church’s country', async () => {
    const church = await registerChurch(app.url, 'Islington Church');
    expect((await church.client.put('/api/settings', { defaultCountryCode: '+44' })).status).toBe(200);
    const res = await upload(church.client, fixture('elvanto-people.csv'), 'elvanto.csv');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ source: 'elvanto-people', sourceLabel: 'Elvanto people export' });
    expect(res.body.preview.people).toMatchObject({
      new: 5,
      matched: 0,
      skipped: 1,
      households: 2,
      children: 1,
    });
    expect(res.body.preview.problems).toEqual([
      { line: 9, column: 'Birthday', reason: expect.stringContaining("'someday' is not a date") },
    ]);

    const done = await committed(church.client, res.body.id);
    expect(done.report.people).toEqual({ created: 5, updated: 0, unchanged: 0 });
    const all = await contacts(church.client);
    const by = (first: string) => all.find((c) => c.firstName === first)!;
    expect(all.map((c) => `${c.firstName} ${c.lastName}`).sort()).toEqual([
      'Björn Silva',
      'Chloé Dubois',
      'Mateus Silva',
      'Ngozi Okafor',
      'Tomás Dubois',
    ]);
    // The Primary Contact heads the family; Inès, placed after the Silvas and in both families, is a child of each.
    expect(await familyOf(church.client, by('Chloé').id)).toEqual({
      family: ['Tomás: spouse'],
      children: ['Inès Dubois 2012-05-20'],
    });
    expect(await familyOf(church.client, by('Mateus').id)).toEqual({
      family: ['Björn: sibling'],
      children: ['Inès Dubois 2012-05-20'],
    });
    expect(by('Tomás').email).toBe('chloe@example.org');
    // The mobile first, read in the church's country (+44).
    expect(await phoneE164(by('Chloé').id)).toBe('+447700900123');
    expect(await phoneE164(by('Tomás').id)).toBe('+447700900456');
    expect(await phoneE164(by('Ngozi').id)).toBe('+447700900999');
    const tomas = (await church.client.get(`/api/contacts/${by('Tomás').id}`)).body;
    expect((await stored(by('Tomás').id)).dateOfBirth).toBe('1983-07-15');
    expect(tomas.metadata.notes).toContain('Preferred Name: Tom');
    expect(tomas.metadata.postalCode).toBe('N1 9GU');
    for (const c of all) expect(c.consent.email.status).toBe('unsubscribed');
  });
});

describe('Breeze contributions split between funds', () => {
  it('imports one gift with a line per fund, totals per fund and year to the cent, refunds off them', async () => {
    const church = await registerChurch(app.url, 'Split Church');
    const res = await upload(church.client, fixture('breeze-contributions-split.csv'), 'contributions.csv');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.source).toBe('breeze-contributions');
    expect(res.body.preview.problems).toEqual([]);
    expect(res.body.preview.gifts).toMatchObject({ count: 6, refunds: 1, totalCents: 155050 });
    expect(res.body.preview.gifts.funds.map((f: { name: string }) => f.name)).toEqual([
      'Building',
      'General',
      'Missions',
    ]);
    expect(res.body.preview.gifts.totals).toEqual([
      { fund: 'Building', year: 2024, count: 2, cents: 0 },
      { fund: 'General', year: 2024, count: 5, cents: 114000 },
      { fund: 'General', year: 2025, count: 1, cents: 10000 },
      { fund: 'Missions', year: 2024, count: 4, cents: 27050 },
      { fund: 'Missions', year: 2025, count: 2, cents: 4000 },
    ]);

    const done = await committed(church.client, res.body.id);
    // The ledger's lines, per fund and year, equal the file's to the cent.
    const fileTotals = res.body.preview.gifts.totals as { fund: string; year: number; cents: number }[];
    expect(done.report.totals).toEqual(
      fileTotals.map((t) => ({ fund: t.fund, year: t.year, fileCents: t.cents, ledgerCents: t.cents })),
    );
    const lines = await app.db
      .selectFrom('gifts as g')
      .innerJoin('giftLines as l', 'l.giftId', 'g.id')
      .innerJoin('funds as f', 'f.id', 'l.fundId')
      .select(['g.externalId', 'g.amountCents as total', 'g.status', 'f.name', 'l.amountCents'])
      .where('g.userId', '=', church.user.id)
      .orderBy('g.externalId')
      .orderBy('f.name')
      .execute();
    const gift = (id: string) => lines.filter((l) => l.externalId === id).map((l) => `${l.name} ${l.amountCents}`);
    expect(new Set(lines.map((l) => l.externalId)).size).toBe(6);
    expect(gift('S1')).toEqual(['General 100000', 'Missions 25050']);
    expect(lines.find((l) => l.externalId === 'S1')).toMatchObject({ total: 125050, status: 'completed' });
    expect(gift('S3')).toEqual(['Building 200000', 'General 2525', 'Missions 1000']);
    expect(lines.find((l) => l.externalId === 'S3')!.status).toBe('refunded');
    // The same fund twice in one cell is one line.
    expect(gift('S7')).toEqual(['Missions 2000']);
  });

  it('names the row and column of a decimal comma and of shares that do not add up, and refuses to commit', async () => {
    const church = await registerChurch(app.url, 'Comma Church');
    const res = await upload(church.client, fixture('breeze-contributions-split-bad.csv'), 'bad.csv');
    expect(res.status).toBe(201);
    expect(res.body.preview.problems).toEqual([
      {
        line: 2,
        column: 'Amount',
        reason: "'12,50' uses a decimal comma; this file is read as US, so write it as 12.50",
      },
      {
        line: 3,
        column: 'Fund(s)',
        reason: "General: '12,50' uses a decimal comma; this file is read as US, so write it as 12.50",
      },
      { line: 4, column: 'Fund(s)', reason: 'The funds’ amounts add up to $15.00, not the row’s Amount of $20.00' },
    ]);
    const commit = await church.client.post(`/api/imports/${res.body.id}/commit`, {});
    expect(commit.status).toBe(400);
    expect(commit.body.message).toMatch(/^Row 2, column Amount: '12,50' uses a decimal comma/);
  });
});
