import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// How much of a ledger entry went back to the payer. A partial refund (a registration cancelled
// with part of its fee refunded) leaves the entry completed and counted at its amount less
// `refunded_cents`; a full refund makes it `refunded` (off every total) with `refunded_cents` its
// whole amount. Entries already refunded are given their whole amount here.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table gifts
      add column refunded_cents integer not null default 0,
      add constraint gifts_refunded_cents_range check (refunded_cents between 0 and amount_cents)`.execute(db);
  await sql`update gifts set refunded_cents = amount_cents where status = 'refunded'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table gifts drop column refunded_cents`.execute(db);
}
