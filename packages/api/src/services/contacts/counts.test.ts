import { describe, expect, it } from 'vitest';
import { ownerDb, sql, tenantDb } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { twoChurchesWithContacts } from '@lampstand/db/test/two-churches';
import { compactContactCounts, contactTotal } from './counts.js';

// A church's number of contacts is kept by the writes (migration 0096), not counted.
const { db } = await freshDatabase({ poolMax: 4 });
const { churchA, churchB } = await twoChurchesWithContacts(db);

async function counted(church: number): Promise<number> {
  const row = await ownerDb(db)
    .selectFrom('contacts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('userId', '=', church)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const person = (userId: number, n: number) => ({ userId, firstName: `P${n}`, lastName: 'Count' });

describe("a church's contact count kept by the writes", () => {
  it('follows inserts one by one and in bulk, and deletes, per church', async () => {
    expect(await contactTotal(db, churchA)).toBe(2);
    expect(await contactTotal(db, churchB)).toBe(1);
    const a = tenantDb(db, churchA);
    await a.insertInto('contacts').values(person(churchA, 1)).execute();
    await a
      .insertInto('contacts')
      .values(Array.from({ length: 250 }, (_, i) => person(churchA, 100 + i)))
      .execute();
    await a.deleteFrom('contacts').where('userId', '=', churchA).where('firstName', 'like', 'P1%').execute();
    expect(await contactTotal(a, churchA)).toBe(await counted(churchA));
    expect(await contactTotal(db, churchB)).toBe(1);
    // Another church's handle sees none of A's rows of the count.
    expect(await contactTotal(tenantDb(db, churchB), churchA)).toBe(0);
  });

  it('lets two writers of one church add contacts at the same time (rows are appended, not updated)', async () => {
    const before = await contactTotal(db, churchA);
    const owner = ownerDb(db);
    await owner.transaction().execute(async (first) => {
      await first.insertInto('contacts').values(person(churchA, 900)).execute();
      // The first transaction is still open: a second writer of the same church does not wait for it.
      await owner.insertInto('contacts').values(person(churchA, 901)).execute();
      expect(await contactTotal(owner, churchA)).toBe(before + 1);
    });
    expect(await contactTotal(db, churchA)).toBe(before + 2);
  });

  it("folds past days into one row per day and keeps every church's total", async () => {
    const owner = ownerDb(db);
    await sql`update contact_counts set day = current_date - 3 where user_id = ${churchA}`.execute(owner);
    const rowsBefore = await sql<{
      n: number;
    }>`select count(*)::int as n from contact_counts where user_id = ${churchA}`.execute(owner);
    expect(rowsBefore.rows[0]!.n).toBeGreaterThan(1);
    const totalA = await contactTotal(db, churchA);
    const totalB = await contactTotal(db, churchB);
    expect(await compactContactCounts(owner)).toBeGreaterThan(0);
    const rowsAfter = await sql<{
      n: number;
    }>`select count(*)::int as n from contact_counts where user_id = ${churchA}`.execute(owner);
    expect(rowsAfter.rows[0]!.n).toBe(1);
    expect(await contactTotal(db, churchA)).toBe(totalA);
    expect(await contactTotal(db, churchB)).toBe(totalB);
    expect(await compactContactCounts(owner)).toBe(0);
  });

  it("goes with the church when the church's account is deleted", async () => {
    const owner = ownerDb(db);
    await owner.deleteFrom('users').where('id', '=', churchB).execute();
    const left = await sql<{
      n: number;
    }>`select count(*)::int as n from contact_counts where user_id = ${churchB}`.execute(owner);
    expect(left.rows[0]!.n).toBe(0);
  });
});
