import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// The dashboard's getting-started checklist: whether each step is done is read from the church's
// own data (its profile, contacts, sending domain, campaigns, pages), so nothing is stored for the
// steps; only when the church hid the list for good is kept, on its settings row.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table church_settings add column getting_started_dismissed_at timestamptz`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table church_settings drop column getting_started_dismissed_at`.execute(db);
}
