import { describe, expect, it } from 'vitest';
import { sql } from '@lampstand/db';
import { registerChurch, type HttpClient } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';
import { moveIn, moveInFixture } from '../helpers/move-in.js';

// POST /api/imports/{id}/undo: a people file (changing people already here) and a donations file
// imported, then undone, donations first: the church's rows are what they were before, but for an
// edit staff made after the import. The 7 days are counted from the import's finish, which the
// test moves back (nothing waits on a real clock).

const app = await sharedTestApp();
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');

const { upload: uploadFile, committed } = moveIn(app.url);

async function upload(client: HttpClient, name: string) {
  const res = await uploadFile(client, moveInFixture(name), name);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

async function imported(client: HttpClient, name: string, policy: Record<string, string> = {}) {
  const id = await upload(client, name);
  await committed(client, id, policy);
  return id;
}

/** Every row of the church's people, families and ledger, as the database holds it. */
async function snapshot(tenant: number) {
  const rows = async (table: string, drop: string[] = []) => {
    const { rows } = await sql<Record<string, unknown>>`
      select * from ${sql.table(table)} where user_id = ${tenant} order by id`.execute(app.db);
    return rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !drop.includes(k))));
  };
  return {
    // The restore stamps `updatedAt` (the row did change twice).
    contacts: await rows('contacts', ['updatedAt']),
    consent: await rows('contact_consent_events'),
    externalIds: await rows('contact_external_ids'),
    families: await rows('contact_family_links'),
    children: await rows('contact_children'),
    funds: await rows('funds'),
    gifts: await rows('gifts'),
    lines: await rows('gift_lines'),
  };
}

/** The ledger's completed gifts per fund, as statements and totals read it. */
async function ledger(tenant: number) {
  const { rows } = await sql<{ fund: string; cents: string }>`
    select f.name as fund, sum(l.amount_cents) as cents from gifts g
      join gift_lines l on l.gift_id = g.id join funds f on f.id = l.fund_id
     where g.user_id = ${tenant} and g.status = 'completed' group by f.name order by f.name`.execute(app.db);
  return rows.map((r) => ({ fund: r.fund, cents: Number(r.cents) }));
}

describe('undoing a move-in import', () => {
  it('takes back donations, then people: the church as it was, but for a later staff edit', async () => {
    const tenant = grace.user.id;
    expect((await grace.client.put('/api/settings', { defaultCountryCode: '+1' })).status).toBe(200);
    // People already here, whom the file matches: Grace (by email) and Sam (by email).
    const okafor = await grace.client.post('/api/contacts', {
      firstName: 'Grace',
      lastName: 'Okafor',
      email: 'GRACE.okafor@example.org',
      phone: '(512) 555-0999',
    });
    expect(okafor.status, okafor.text).toBe(201);
    const consent = await grace.client.put(`/api/contacts/${okafor.body.id}/consent`, {
      channel: 'email',
      status: 'subscribed',
    });
    expect(consent.status, JSON.stringify(consent.body)).toBe(200);
    const sam = await grace.client.post('/api/contacts', {
      firstName: 'Samuel',
      lastName: 'Lee',
      email: 'sam.lee@example.org',
      phone: '(512) 555-0300',
    });
    expect(sam.status, sam.text).toBe(201);
    // A gift already in the ledger, to the church's own General fund.
    await sql`
      with g as (
        insert into gifts (user_id, amount_cents, status, idempotency_key, receipt_token, completed_at, donor_name)
        values (${tenant}, 4200, 'completed', 'before-import', 'before-import-token', now(), 'Walk-in')
        returning id)
      insert into gift_lines (user_id, gift_id, fund_id, amount_cents)
      select ${tenant}, g.id, f.id, 4200 from g, funds f where f.user_id = ${tenant} and f.name = 'General'`.execute(
      app.db,
    );
    const before = await snapshot(tenant);
    const ledgerBefore = await ledger(tenant);
    expect(ledgerBefore).toEqual([{ fund: 'General', cents: 4200 }]);

    // Theirs wins for names and phones: Grace's phone and Sam's first name change, her birth date
    // and notes fill in, her email consent goes to what the file says (not opted in).
    const people = await imported(grace.client, 'planning-center-people.csv', { firstName: 'take', phone: 'take' });
    const after = (await grace.client.get(`/api/contacts/${okafor.body.id}`)).body;
    expect(after).toMatchObject({ phone: '512.555.0201' });
    expect(after.metadata.notes).toContain('Membership: Regular Attender');
    expect(after.consent.email.status).toBe('unsubscribed');
    expect((await grace.client.get(`/api/contacts/${sam.body.id}`)).body.firstName).toBe('Sam');
    const gifts = await imported(grace.client, 'planning-center-donations.csv');
    expect(await ledger(tenant)).toEqual([
      { fund: 'General', cents: 4200 },
      { fund: 'General Fund', cents: 147000 },
      { fund: 'Missions', cents: 5000 },
    ]);
    // Staff correct Sam's first name after the import: the edit is theirs, and stays.
    expect((await grace.client.patch(`/api/contacts/${sam.body.id}`, { firstName: 'Sammy' })).status).toBe(200);
    const samEdited = (await snapshot(tenant)).contacts.find((c) => c.id === sam.body.id)!;
    expect(samEdited.firstName).toBe('Sammy');

    // The people cannot go first: the donations are given by people the import added.
    const early = await grace.client.post(`/api/imports/${people}/undo`, {});
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(
      "Undo the donations import 'planning-center-donations.csv' first: its gifts are given by people this import added",
    );
    // Another church's import is not found.
    expect((await hope.client.post(`/api/imports/${gifts}/undo`, {})).status).toBe(404);

    const undoneGifts = await grace.client.post(`/api/imports/${gifts}/undo`, {});
    expect(undoneGifts.status, JSON.stringify(undoneGifts.body)).toBe(200);
    expect(undoneGifts.body).toMatchObject({ status: 'undone', undoUntil: null });
    expect(undoneGifts.body.report.undone).toMatchObject({
      // Six gifts (one refunded in Planning Center): $1,520.00 of them completed.
      giftsRemoved: 6,
      giftsCents: 152000,
      fundsRemoved: expect.arrayContaining(['General Fund', 'Missions', 'Building Fund']),
    });
    expect(await ledger(tenant)).toEqual(ledgerBefore);
    const again = await grace.client.post(`/api/imports/${gifts}/undo`, {});
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This import has already been undone');

    const undonePeople = await grace.client.post(`/api/imports/${people}/undo`, {});
    expect(undonePeople.status, JSON.stringify(undonePeople.body)).toBe(200);
    expect(undonePeople.body.report.undone).toMatchObject({
      // José, Zoë and Jin were new; Grace and Sam were here.
      contactsRemoved: 3,
      contactsRestored: 2,
      contactsKept: 0,
      fieldsKept: 1,
    });

    const now = await snapshot(tenant);
    // Everyone as before the import, but Sam's first name as staff wrote it; the notes the import
    // gave him (which nobody edited) are gone.
    const { notes, ...samMetadata } = samEdited.metadata as Record<string, unknown>;
    expect(notes).toBe('Status: active');
    expect(now.contacts).toEqual(
      before.contacts.map((c) => (c.id === sam.body.id ? { ...samEdited, metadata: samMetadata } : c)),
    );
    expect(now.consent).toEqual(before.consent);
    expect(now.externalIds).toEqual(before.externalIds);
    expect(now.families).toEqual(before.families);
    expect(now.children).toEqual(before.children);
    expect(now.funds).toEqual(before.funds);
    expect(now.gifts).toEqual(before.gifts);
    expect(now.lines).toEqual(before.lines);
    expect(await ledger(tenant)).toEqual(ledgerBefore);

    // The one event log says so: the imports undone, the people removed and restored.
    const { rows: events } = await sql<{ type: string; contactId: number | null; payload: Record<string, unknown> }>`
      select type, contact_id, payload from events where user_id = ${tenant} and id > (
        select max(id) from events where user_id = ${tenant} and type = 'contact.created') order by id`.execute(app.db);
    const undone = events.filter((e) => e.type === 'import.undone');
    expect(undone.map((e) => e.payload)).toEqual([
      expect.objectContaining({
        kind: 'gifts',
        giftsRemoved: 6,
        import: { id: gifts, name: 'planning-center-donations.csv' },
      }),
      expect.objectContaining({ kind: 'people', contactsRemoved: 3, contactsRestored: 2 }),
    ]);
    expect(events.filter((e) => e.type === 'contact.deleted')).toHaveLength(3);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'consent.changed',
        contactId: okafor.body.id,
        payload: expect.objectContaining({ from: 'unsubscribed', to: 'subscribed', reason: 'import undone' }),
      }),
    );
  });

  it('keeps a person it added who has joined a group since, with the group', async () => {
    const people = await imported(grace.client, 'planning-center-people.csv');
    const added = (
      await sql<{ id: number; firstName: string }>`
        select c.id, c.first_name from contacts c
        join import_changes ic on ic.row_id = c.id and ic.table_name = 'contacts' and ic.action = 'created'
        where ic.import_id = ${people} order by c.id`.execute(app.db)
    ).rows;
    expect(added).toHaveLength(3);
    const joiner = added[0]!;
    const group = (await grace.client.post('/api/groups', { name: 'Tuesday Night', frequency: 'by_arrangement' })).body;
    expect((await grace.client.post(`/api/groups/${group.id}/members`, { contactIds: [joiner.id] })).status).toBe(201);

    const undone = await grace.client.post(`/api/imports/${people}/undo`, {});
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(undone.body.report.undone).toMatchObject({ contactsRemoved: 2, contactsKept: 1 });
    expect((await grace.client.get(`/api/contacts/${joiner.id}`)).body.firstName).toBe(joiner.firstName);
    for (const gone of added.slice(1)) expect((await grace.client.get(`/api/contacts/${gone.id}`)).status).toBe(404);
    const roster = (await grace.client.get(`/api/groups/${group.id}/members`)).body as { contactId: number }[];
    expect(roster.map((m) => m.contactId)).toEqual([joiner.id]);
  });

  it('refuses an import that has not finished, and one that finished more than 7 days ago', async () => {
    const church = await registerChurch(app.url, 'Late Church');
    const previewed = await upload(church.client, 'planning-center-people.csv');
    const notDone = await church.client.post(`/api/imports/${previewed}/undo`, {});
    expect(notDone.status).toBe(409);
    expect(notDone.body.message).toBe('Only a finished import can be undone; this one is not confirmed yet');

    const id = await imported(church.client, 'planning-center-people.csv');
    const day = 86_400_000;
    const finishedAgo = (ms: number) =>
      app.db
        .updateTable('imports')
        .set({ finishedAt: new Date(Date.now() - ms) })
        .where('id', '=', id)
        .execute();
    await finishedAgo(7 * day + 60_000);
    const late = await church.client.post(`/api/imports/${id}/undo`, {});
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(
      'An import can be undone for 7 days after it finished; this one finished longer ago',
    );
    expect((await church.client.get(`/api/imports/${id}`)).body).toMatchObject({
      status: 'completed',
      undoUntil: expect.any(String),
    });
    expect((await church.client.get('/api/contacts')).body).toHaveLength(5);
    // A minute inside the 7 days, it can.
    await finishedAgo(7 * day - 60_000);
    const inTime = await church.client.post(`/api/imports/${id}/undo`, {});
    expect(inTime.status, JSON.stringify(inTime.body)).toBe(200);
    expect((await church.client.get('/api/contacts')).body).toEqual([]);
  });

  it('refuses a recurring givers import, and one that came with a Lampstand export', async () => {
    const church = await registerChurch(app.url, 'Moved Church');
    const id = await imported(church.client, 'planning-center-people.csv');
    await app.db.updateTable('imports').set({ kind: 'recurring' }).where('id', '=', id).execute();
    const recurring = await church.client.post(`/api/imports/${id}/undo`, {});
    expect(recurring.status).toBe(409);
    expect(recurring.body.message).toBe('A recurring givers import cannot be undone');
    await app.db.updateTable('imports').set({ kind: 'people' }).where('id', '=', id).execute();
    // The church was then moved in from an export: its earlier imports' undo logs name another church's rows.
    await app.db
      .insertInto('imports')
      .values({
        userId: church.user.id,
        fileName: 'lampstand-export.zip',
        source: 'lampstand',
        kind: 'church',
        csv: '',
        preview: JSON.stringify({ rows: 0, people: null, gifts: null, problems: [] }),
        status: 'completed',
        finishedAt: new Date(),
        createdAt: new Date(Date.now() + 1000),
      })
      .execute();
    const moved = await church.client.post(`/api/imports/${id}/undo`, {});
    expect(moved.status).toBe(409);
    expect(moved.body.message).toBe(
      'This import came with the church’s Lampstand export: it can be undone only where it was made',
    );
    expect((await church.client.get('/api/contacts')).body).toHaveLength(5);
  });
});
