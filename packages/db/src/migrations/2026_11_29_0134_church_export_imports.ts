import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Moving a Lampstand export into a new church goes through the move-in imports: its upload is an
// `imports` row of kind 'church' (beside 'people', 'gifts' and 'recurring'), the ZIP kept in `archive` (a CSV's text stays in `csv`, empty
// for a ZIP) until the background restore has written it, then cleared.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table imports add column archive bytea`.execute(db);
  await sql`alter table imports drop constraint imports_kind_check`.execute(db);
  await sql`
    alter table imports add constraint imports_kind_check check (kind in ('people', 'gifts', 'recurring', 'church'))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from imports where kind = 'church'`.execute(db);
  await sql`alter table imports drop constraint imports_kind_check`.execute(db);
  await sql`alter table imports add constraint imports_kind_check check (kind in ('people', 'gifts', 'recurring'))`.execute(
    db,
  );
  await sql`alter table imports drop column archive`.execute(db);
}
