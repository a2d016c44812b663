import { describe, expect, it } from 'vitest';
import { ownerDb, sql, tenantDb } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { twoChurchesWithContacts } from '@lampstand/db/test/two-churches';
import { findContacts } from './contacts.js';
import { ensureOwnSearchIndex, maintainOwnSearchIndexes } from './search-index.js';

// A large church's own trigram index (search-index.ts): made past the line, used by the search's
// plan, the same answers (rows, order, exact total) as through the shared index, and dropped once
// the church is gone. The line is lowered to a handful of contacts here.
const { db } = await freshDatabase();
const { churchA, churchB } = await twoChurchesWithContacts(db);
const names = ['Smith', 'Smithers', 'Jones', 'Nesmith', 'Lee'];
await db
  .insertInto('contacts')
  .values(
    Array.from({ length: 40 }, (_, i) => ({
      userId: churchA,
      firstName: `Kid${String(i).padStart(2, '0')}`,
      lastName: names[i % names.length]!,
      email: `kid${i}@a.test`,
    })),
  )
  .execute();
await db.insertInto('contacts').values({ userId: churchB, firstName: 'Bo', lastName: 'Smith' }).execute();

const indexes = async () =>
  (
    await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'contact_search'
      and indexname like 'contact_search_church_%' order by 1`.execute(ownerDb(db))
  ).rows.map((r) => r.name);

/**
 * The index a search's statement takes for a church, as the search functions run it (as the
 * owner, the church's id planned as a value), with sequential scans ruled out (tiny tables).
 */
async function indexUsed(church: number): Promise<string> {
  return ownerDb(db)
    .transaction()
    .execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const { rows } = await sql<Record<string, string>>`explain select s.contact_id from contact_search s
        where s.user_id = ${sql.lit(church)} and s.doc like '%smi%'`.execute(trx);
      return rows.map((r) => Object.values(r)[0]).join('\n');
    });
}

const search = (church: number, page = 1) =>
  findContacts(tenantDb(db, church), church, { search: 'smi', tab: 'all', page, pageSize: 10 });

describe("a large church's own search index", () => {
  it('is made past the line, used by the plan, and answers exactly as before', async () => {
    const before = [await search(churchA), await search(churchA, 2), await search(churchA, 5)];
    expect(before[0]!.total).toBe(24);
    expect(await ensureOwnSearchIndex(db, churchB, { at: 10 })).toBe(false);
    expect(await ensureOwnSearchIndex(db, churchA, { at: 10 })).toBe(true);
    expect(await indexes()).toEqual([`contact_search_church_${churchA}_doc_idx`]);
    expect(await indexUsed(churchA)).toContain(`contact_search_church_${churchA}_doc_idx`);
    expect(await indexUsed(churchB)).toContain('contact_search_user_doc_idx');
    expect([await search(churchA), await search(churchA, 2), await search(churchA, 5)]).toEqual(before);
    expect((await search(churchB)).items.map((c) => c.firstName)).toEqual(['Bo']);
    // Asked again: nothing new; a contact added since is found through it.
    expect(await ensureOwnSearchIndex(db, churchA, { at: 10 })).toBe(true);
    await db.insertInto('contacts').values({ userId: churchA, firstName: 'Zed', lastName: 'Smithy' }).execute();
    expect((await search(churchA)).total).toBe(25);
  });

  it('is made and dropped by the nightly maintenance', async () => {
    expect(await maintainOwnSearchIndexes(db, { at: 10 })).toEqual({ made: [], dropped: [] });
    await db.deleteFrom('contacts').where('userId', '=', churchA).where('firstName', 'like', 'Kid%').execute();
    expect(await maintainOwnSearchIndexes(db, { at: 10 })).toEqual({ made: [], dropped: [churchA] });
    expect(await indexes()).toEqual([]);
    expect((await search(churchA)).items.map((c) => c.lastName)).toEqual(['Smithy']);
    await db
      .insertInto('contacts')
      .values(Array.from({ length: 12 }, (_, i) => ({ userId: churchB, firstName: `B${i}`, lastName: 'Smith' })))
      .execute();
    expect(await maintainOwnSearchIndexes(db, { at: 10 })).toEqual({ made: [churchB], dropped: [] });
    expect((await search(churchB)).total).toBe(13);
  });
});
