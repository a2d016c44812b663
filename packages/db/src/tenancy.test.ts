import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../test/fresh-db.js';
import { twoChurchesWithContacts } from '../test/two-churches.js';
import { APP_ROLE, bypassDb, ownerDb, rlsStatus, scopedDb, tenantDb } from './tenancy.js';
import type { Db } from './client.js';

// Row-level security is the second wall behind `where user_id = tenant` in every
// query. These queries forget the tenant on purpose.
describe('row-level security', async () => {
  const { db } = await freshDatabase();
  const { churchA, churchB } = await twoChurchesWithContacts(db);

  const names = async (d: Db) =>
    (await sql<{ firstName: string }>`select first_name from contacts order by first_name`.execute(d)).rows.map(
      (r) => r.firstName,
    );

  it('works as the application role, which does not own the tables', async () => {
    expect(await rlsStatus(db)).toBe('on');
    const { rows } = await sql<{ who: string; owns: boolean }>`
      select current_user as who,
        exists (select 1 from pg_tables where schemaname = 'public' and tableowner = current_user) as owns`.execute(
      tenantDb(db, churchA),
    );
    expect(rows[0]).toEqual({ who: APP_ROLE, owns: false });
  });

  it("a query without a tenant filter sees only the church's own rows", async () => {
    expect(await names(tenantDb(db, churchA))).toEqual(['Abe', 'Ann']);
    expect(await names(tenantDb(db, churchB))).toEqual(['Bea']);
    // Through a transaction too, and through a child table that has no church column.
    const inTrx = await tenantDb(db, churchB)
      .transaction()
      .execute((trx) => trx.selectFrom('contacts').select('firstName').execute());
    expect(inTrx.map((r) => r.firstName)).toEqual(['Bea']);
  });

  it('with no tenant set, a query sees nothing', async () => {
    expect(await names(scopedDb(db, { kind: 'none' }))).toEqual([]);
    // The same pooled connections just served church A and B: nothing of theirs stays behind.
    expect(await names(scopedDb(db, { kind: 'none' }))).toEqual([]);
  });

  it("refuses to write another church's rows", async () => {
    await expect(
      tenantDb(db, churchA)
        .insertInto('contacts')
        .values({ userId: churchB, firstName: 'Eve', lastName: 'X' })
        .execute(),
    ).rejects.toThrow(/row-level security/);
    await expect(
      scopedDb(db, { kind: 'none' })
        .insertInto('contacts')
        .values({ userId: churchA, firstName: 'Eve', lastName: 'X' })
        .execute(),
    ).rejects.toThrow(/row-level security/);
    // An update or delete without the filter touches only the church's own rows.
    const updated = await tenantDb(db, churchA).updateTable('contacts').set({ lastName: 'Z' }).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(2n);
    await expect(
      tenantDb(db, churchA).updateTable('contacts').set({ userId: churchB }).where('firstName', '=', 'Ann').execute(),
    ).rejects.toThrow(/row-level security/);
    expect(await names(tenantDb(db, churchB))).toEqual(['Bea']);
    expect(await names(bypassDb(db))).toEqual(['Abe', 'Ann', 'Bea']);
  });

  it('follows the parent row for a child table without a church column', async () => {
    const [m] = await db.insertInto('teamMembers').values({ userId: churchB, name: 'Bo' }).returning('id').execute();
    const [p] = await db
      .insertInto('teamPositions')
      .values({ userId: churchB, name: 'Sound' })
      .returning('id')
      .execute();
    await db.insertInto('teamMemberPositions').values({ teamMemberId: m!.id, positionId: p!.id }).execute();
    const seen = (d: Db) => d.selectFrom('teamMemberPositions').select('positionId').execute();
    expect(await seen(tenantDb(db, churchB))).toHaveLength(1);
    expect(await seen(tenantDb(db, churchA))).toHaveLength(0);
  });

  it('every table with a church column has the policy (a new table needs its own)', async () => {
    const { rows } = await sql<{ tableName: string; rls: boolean; policy: boolean }>`
      select c.relname as table_name, c.relrowsecurity as rls,
        exists (select 1 from pg_policies p where p.schemaname = 'public' and p.tablename = c.relname) as policy
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r'
        and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'user_id' and not a.attisdropped)
      order by 1`.execute(ownerDb(db));
    expect(rows.length).toBeGreaterThan(30);
    expect(rows.filter((r) => !r.rls || !r.policy).map((r) => r.tableName)).toEqual([]);
  });

  // Migration 0100: under the policy only leakproof conditions reach an index, and lower() is not;
  // a contact is looked up by its address through the stored `email_lower` and its index.
  it('a lookup by address reaches its index under the policy', async () => {
    await sql`
      insert into contacts (user_id, first_name, last_name, email)
      select ${churchA}, 'P' || g, 'Bulk', 'Person' || g || '@Example.org' from generate_series(1, 5000) g`.execute(
      ownerDb(db),
    );
    await sql`analyze contacts`.execute(ownerDb(db));
    const church = tenantDb(db, churchA);
    const found = await church
      .selectFrom('contacts')
      .select(['email', 'emailLower'])
      .where('userId', '=', churchA)
      .where('emailLower', '=', 'person42@example.org')
      .execute();
    expect(found).toEqual([{ email: 'Person42@Example.org', emailLower: 'person42@example.org' }]);
    const plan = (
      await sql<{ 'QUERY PLAN': string }>`
        explain select id from contacts
        where user_id = ${churchA} and email_lower = any(${['person1@example.org', 'person2@example.org']}::text[])`.execute(
        church,
      )
    ).rows
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    expect(plan).toContain('contacts_user_email_lower_idx');
    expect(plan).not.toMatch(/Seq Scan on contacts/);
  });
});
