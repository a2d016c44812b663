import { describe, expect, it } from 'vitest';
import { bypassDb, ownerDb, rlsStatus, sql, tenantDb } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { twoChurchesWithContacts } from '@lampstand/db/test/two-churches';
import { createContact, deleteContact, findContacts, updateContact } from './contacts.js';

// Contact search finds its ids with `contact_search_page` and `contact_search_ids`
// (migrations 0095, 0099), SECURITY DEFINER functions that may use the church's trigram index over
// `contact_search` (each contact's lowered text and sort keys, kept by triggers on contacts). They
// must show no more than the row-level security policy would: another church's ids never, whatever
// church they are asked for; and the text they search must follow every change of a contact.
const { db } = await freshDatabase();
const { churchA, churchB } = await twoChurchesWithContacts(db);
await db
  .insertInto('contacts')
  .values([
    { userId: churchA, firstName: 'Maria', lastName: 'Smithson', email: 'maria@a.test' },
    { userId: churchB, firstName: 'Mark', lastName: 'Smithers', email: 'mark@b.test' },
  ])
  .execute();

async function idsFor(handle: typeof db, church: number, patterns: string[]): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`select id from contact_search_ids(${church}, ${patterns}::text[])`.execute(
    handle,
  );
  return rows.map((r) => r.id).sort();
}

async function pageFor(handle: typeof db, church: number, patterns: string[]) {
  const { rows } = await sql<{
    id: number | null;
    total: number;
  }>`select id, total from contact_search_page(${church}, ${patterns}::text[], 25, 0)`.execute(handle);
  return rows;
}

describe('contact search under row-level security', () => {
  it('row-level security is on for this database', async () => {
    expect(await rlsStatus(db)).toBe('on');
  });

  it("finds the church's own contacts by name, email and several words", async () => {
    const a = tenantDb(db, churchA);
    const byName = await findContacts(a, churchA, { search: 'smith', tab: 'all', page: 1, pageSize: 25 });
    expect(byName.items.map((c) => c.firstName)).toEqual(['Maria']);
    expect(byName.total).toBe(1);
    const byWords = await findContacts(a, churchA, { search: 'MARIA smi', tab: 'all', page: 1, pageSize: 25 });
    expect(byWords.items.map((c) => c.lastName)).toEqual(['Smithson']);
    const byEmail = await findContacts(a, churchA, { search: 'a.test', tab: 'all', page: 1, pageSize: 25 });
    expect(byEmail.items.map((c) => c.firstName)).toEqual(['Maria']);
    const none = await findContacts(a, churchA, { search: 'smithers', tab: 'all', page: 1, pageSize: 25 });
    expect(none.items).toEqual([]);
    expect(none.total).toBe(0);
  });

  it("gives a church's handle no ids of another church, even when asked for that church", async () => {
    expect(await idsFor(tenantDb(db, churchA), churchB, ['%smith%'])).toEqual([]);
    expect(await idsFor(tenantDb(db, churchA), churchA, ['%smith%'])).toHaveLength(1);
    // The church's service asked with another church's id: nothing found, not that church's rows.
    const crossed = await findContacts(tenantDb(db, churchA), churchB, {
      search: 'smith',
      tab: 'all',
      page: 1,
      pageSize: 25,
    });
    expect(crossed.items).toEqual([]);
  });

  it('answers the system handle (bypass) and the owner for any church, as the policy does', async () => {
    expect(await idsFor(bypassDb(db), churchB, ['%smith%'])).toHaveLength(1);
    expect(await idsFor(ownerDb(db), churchB, ['%smith%'])).toHaveLength(1);
  });

  it('treats LIKE wildcards in the search as text', async () => {
    const a = tenantDb(db, churchA);
    const found = await findContacts(a, churchA, { search: 'm_ria%', tab: 'all', page: 1, pageSize: 25 });
    expect(found.items).toEqual([]);
  });

  it('pages a large result in name order with its total, also past the last page', async () => {
    await db
      .insertInto('contacts')
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          userId: churchA,
          firstName: `Kid${String(i).padStart(2, '0')}`,
          lastName: 'Smithy',
        })),
      )
      .execute();
    const a = tenantDb(db, churchA);
    const first = await findContacts(a, churchA, { search: 'smith', tab: 'all', page: 1, pageSize: 25 });
    expect(first.total).toBe(31);
    expect(first.items).toHaveLength(25);
    expect(first.items[0]!.lastName).toBe('Smithson');
    expect(first.items[1]!.firstName).toBe('Kid00');
    const second = await findContacts(a, churchA, { search: 'smith', tab: 'all', page: 2, pageSize: 25 });
    expect(second.items.map((c) => c.firstName)).toEqual(['Kid24', 'Kid25', 'Kid26', 'Kid27', 'Kid28', 'Kid29']);
    expect(second.total).toBe(31);
    const past = await findContacts(a, churchA, { search: 'smith', tab: 'all', page: 3, pageSize: 25 });
    expect(past).toMatchObject({ items: [], total: 31 });
  });

  it("contact_search_page answers a church's handle for its own church only", async () => {
    expect(await pageFor(tenantDb(db, churchA), churchB, ['%smith%'])).toEqual([]);
    const own = await pageFor(tenantDb(db, churchA), churchA, ['%smithson%']);
    expect(own).toHaveLength(1);
    expect(own[0]!.total).toBe(1);
    expect(await pageFor(bypassDb(db), churchB, ['%smithers%'])).toMatchObject([{ total: 1 }]);
    expect(await pageFor(ownerDb(db), churchB, ['%smithers%'])).toMatchObject([{ total: 1 }]);
    // Nothing found: one row with no id, carrying the total 0.
    expect(await pageFor(tenantDb(db, churchA), churchA, ['%zzzz%'])).toEqual([{ id: null, total: 0 }]);
  });

  it("shows a church's handle only its own rows of contact_search", async () => {
    const { rows } = await sql<{ userId: number }>`select distinct user_id from contact_search`.execute(
      tenantDb(db, churchA),
    );
    expect(rows.map((r) => r.userId)).toEqual([churchA]);
  });

  it("keeps each contact's search text with the contact: created, renamed, new email and phone, deleted", async () => {
    const a = tenantDb(db, churchA);
    const find = async (search: string) =>
      (await findContacts(a, churchA, { search, tab: 'all', page: 1, pageSize: 25 })).items.map((c) => c.id);
    const created = await createContact(a, churchA, {
      firstName: 'Zebedee',
      lastName: 'Quill',
      email: 'zeb@quill.test',
      phone: '0499 111 222',
    });
    expect(await find('zebedee')).toEqual([created.id]);
    expect(await find('+61499111222')).toEqual([created.id]);
    const row = () =>
      ownerDb(db).selectFrom('contactSearch').selectAll().where('contactId', '=', created.id).executeTakeFirst();
    const before = await row();
    // A change that is not searched leaves the text as it was.
    await updateContact(a, churchA, { id: created.id, metadata: { notes: 'Met at the door' } });
    expect(await row()).toEqual(before);
    await updateContact(a, churchA, { id: created.id, lastName: 'Quillon', email: 'zq@elsewhere.test' });
    expect(await find('quillon')).toEqual([created.id]);
    expect(await find('quill.test')).toEqual([]);
    expect(await find('elsewhere')).toEqual([created.id]);
    await updateContact(a, churchA, { id: created.id, phone: '0488 333 444' });
    expect(await find('0499')).toEqual([]);
    expect(await find('488 333')).toEqual([created.id]);
    expect((await row())!.lastKey).toBe('quillon');
    await deleteContact(a, churchA, created.id);
    expect(await find('zebedee')).toEqual([]);
    expect(await row()).toBeUndefined();
  });

  it('keeps totals exact when a search is combined with a tab or a list', async () => {
    const a = tenantDb(db, churchA);
    const made = await db
      .insertInto('contacts')
      .values(
        Array.from({ length: 6 }, (_, i) => ({
          userId: churchA,
          firstName: `Pat${i}`,
          lastName: 'Tabwell',
          metadata: JSON.stringify({ isChurchMember: i % 2 === 0 }),
        })),
      )
      .returning('id')
      .execute();
    const list = await db
      .insertInto('contactLists')
      .values({ userId: churchA, name: 'Tabwell list' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('contactsInLists')
      .values(made.slice(0, 4).map((m) => ({ userId: churchA, listId: list.id, contactId: m.id })))
      .execute();
    const all = await findContacts(a, churchA, { search: 'tabwell', tab: 'all', page: 1, pageSize: 4 });
    expect(all.total).toBe(6);
    expect(all.items.map((c) => c.firstName)).toEqual(['Pat0', 'Pat1', 'Pat2', 'Pat3']);
    const members = await findContacts(a, churchA, { search: 'tabwell', tab: 'members', page: 1, pageSize: 25 });
    expect(members.total).toBe(3);
    expect(members.items.map((c) => c.firstName)).toEqual(['Pat0', 'Pat2', 'Pat4']);
    const inList = await findContacts(a, churchA, {
      search: 'tabwell pat',
      tab: 'all',
      listId: list.id,
      page: 2,
      pageSize: 3,
    });
    expect(inList.total).toBe(4);
    expect(inList.items.map((c) => c.firstName)).toEqual(['Pat3']);
  });
});
