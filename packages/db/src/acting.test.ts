import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../test/fresh-db.js';
import { twoChurchesWithContacts } from '../test/two-churches.js';
import { actorOf } from './acting.js';
import { actingDb, bypassDb, leasedDb, plainDb, primaryDb, readDb, tenantDb } from './tenancy.js';
import type { Db } from './client.js';

// Who a handle acts for travels with it: to the handles made from it, its transactions and their
// connections, so the event a service records names the request's caller.
describe('a handle acting for someone', async () => {
  const { db } = await freshDatabase();
  const { churchA, churchB } = await twoChurchesWithContacts(db);
  const staff = { kind: 'user', id: churchA };
  const names = async (d: Db) =>
    (await sql<{ firstName: string }>`select first_name from contacts order by first_name`.execute(d)).rows.map(
      (r) => r.firstName,
    );

  it('names nobody until told, and the handles made from it keep who it acts for', () => {
    expect(actorOf(db)).toBeUndefined();
    expect(actorOf(tenantDb(db, churchA))).toBeUndefined();
    const acting = actingDb(db, staff);
    expect(actorOf(acting)).toEqual(staff);
    for (const made of [
      tenantDb(acting, churchA),
      bypassDb(tenantDb(acting, churchA)),
      readDb(tenantDb(acting, churchA)),
      primaryDb(acting),
      leasedDb(acting),
      plainDb(acting),
    ])
      expect(actorOf(made)).toEqual(staff);
    // The plain handles of the same scopes still name nobody: the acting ones are handles of their own.
    expect(actorOf(tenantDb(db, churchA))).toBeUndefined();
    expect(actorOf(bypassDb(db))).toBeUndefined();
  });

  it('keeps its scope: a church handle acting for someone sees only its church', async () => {
    expect(await names(actingDb(tenantDb(db, churchA), staff))).toEqual(['Abe', 'Ann']);
    expect(await names(tenantDb(actingDb(db, staff), churchB))).toEqual(['Bea']);
  });

  it('its transactions and connections act for the same, and another actor replaces it', async () => {
    const acting = actingDb(tenantDb(db, churchA), staff);
    const inTrx = await acting.transaction().execute(async (trx) => {
      const before = actorOf(trx);
      const visitor = actorOf(actingDb(trx, { kind: 'public', id: null }));
      return { before, visitor, rows: await names(trx) };
    });
    expect(inTrx).toEqual({ before: staff, visitor: { kind: 'public', id: null }, rows: ['Abe', 'Ann'] });
    expect(await acting.connection().execute(async (conn) => actorOf(conn))).toEqual(staff);
    expect(actorOf(actingDb(acting, { kind: 'api_key', id: 7 }))).toEqual({ kind: 'api_key', id: 7 });
  });
});
