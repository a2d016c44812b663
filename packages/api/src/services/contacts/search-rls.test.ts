import { describe, expect, it } from 'vitest';
import { bypassDb, ownerDb, rlsStatus, sql, tenantDb } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { twoChurchesWithContacts } from '@lampstand/db/test/two-churches';
import { findContacts } from './contacts.js';

// Issue 33 §2: contact search finds its ids with `contact_search_ids` (migration 0095), a SECURITY
// DEFINER function that may use the church's trigram index. It must show no more than the
// row-level security policy would: another church's ids never, whatever church it is asked for.
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
});
