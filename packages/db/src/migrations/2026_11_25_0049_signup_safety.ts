import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
// Issue 24 (trust before growth):
// - A church's default country code: a phone typed without one (CSV import, landing page sign-ups,
//   the API, merge) is read in it. Existing churches keep '+61', what every path assumed before.
// - What a sign-up brought (city, postal code; the phone was kept already) stays on its row: a
//   sign-up never overwrites a field the contact already has, staff choose to 'Use it'.
// - Whether a donation's message may be shown on the public project page. Gifts made before keep
//   showing their message unless they were anonymous (those donors were never asked).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('church_settings')
    .addColumn('default_country_code', 'text', (c) => c.notNull().defaultTo('+61'))
    .execute();
  await db.schema
    .alterTable('landing_page_signups')
    .addColumn('city', 'text')
    .addColumn('postal_code', 'text')
    .execute();
  await db.schema
    .alterTable('show_up_donations')
    .addColumn('show_message', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`update show_up_donations set show_message = not is_anonymous`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('show_up_donations').dropColumn('show_message').execute();
  await db.schema.alterTable('landing_page_signups').dropColumn('city').dropColumn('postal_code').execute();
  await db.schema.alterTable('church_settings').dropColumn('default_country_code').execute();
}
