import { describe, expect, it } from 'vitest';
import { ownerDb, sql, tenantDb } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { twoChurchesWithContacts } from '@lampstand/db/test/two-churches';
import { findContacts } from './contacts.js';

// The contacts list's search page (`contact_search_page`, migration 0171) is read one of two ways:
// walking the church's contacts in name order from the first match, when the matches are many and
// sit together, or sorting the matches when they are few or the walk meets too few of them. Either
// way every page, and the total, must be what sorting all the matches gives.
const { db } = await freshDatabase();
const { churchA, churchB } = await twoChurchesWithContacts(db);
const first = ['Mary', 'John', 'Grace', 'David', 'Ruth'];
await db
  .insertInto('contacts')
  .values([
    // Many matches together in name order ('walker'): the walk fills each page.
    ...Array.from({ length: 320 }, (_, i) => ({
      userId: churchA,
      firstName: first[i % first.length]!,
      lastName: `Walker${i % 40}`,
      email: `w${i}@walk.test`,
    })),
    // Names between the first match and the rest of its matches ('amid'): the walk runs out.
    { userId: churchA, firstName: 'Amid', lastName: 'Aaron' },
    ...Array.from({ length: 900 }, (_, i) => ({ userId: churchA, firstName: 'Pat', lastName: `Brown${i}` })),
    ...Array.from({ length: 230 }, (_, i) => ({ userId: churchA, firstName: 'Sam', lastName: `Zamid${i % 7}` })),
    // Another church's matches are never counted.
    ...Array.from({ length: 50 }, () => ({ userId: churchB, firstName: 'Mary', lastName: 'Walker' })),
  ])
  .execute();

/** The matches of a search in the list's order, as the owner reads them (the reference). */
async function allMatches(patterns: string[]): Promise<number[]> {
  const cond = patterns.map((p) => sql` and doc like ${p}`);
  const { rows } = await sql<{ id: number }>`
    select contact_id as id from contact_search where user_id = ${churchA} ${sql.join(cond, sql``)}
    order by last_key, first_key, contact_id`.execute(ownerDb(db));
  return rows.map((r) => r.id);
}

describe('contact search pages', () => {
  it.each([
    ['walker', ['%walker%']],
    ['amid', ['%amid%']],
    ['mary walk', ['%mary%', '%walk%']],
    ['ruth', ['%ruth%']],
    ['brown1', ['%brown1%']],
  ])('pages %s in name order with an exact total, to past the last page', async (search, patterns) => {
    const expected = await allMatches(patterns);
    expect(expected.length).toBeGreaterThan(60);
    const a = tenantDb(db, churchA);
    for (const pageSize of [25, 10]) {
      const pages = Math.ceil(expected.length / pageSize);
      for (let page = 1; page <= pages + 1; page++) {
        const found = await findContacts(a, churchA, { search, tab: 'all', page, pageSize });
        expect(found.total).toBe(expected.length);
        expect(found.items.map((c) => c.id)).toEqual(expected.slice((page - 1) * pageSize, page * pageSize));
      }
    }
  });
});
