import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// A church's country ('US', 'AU'; ISO 3166) replaces its default calling code: the calling code, the
// locale of its dates and times and the first day of its week all follow from it. A code a church
// chose ('+1', '+44', '+64') becomes that code's country; '+61' was everyone's default, so it says
// nothing: those churches read their country from their time zone (null until one says).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('church_settings')
    .addColumn('country', 'text', (c) => c.check(sql`country ~ '^[A-Z]{2}$'`))
    .execute();
  await sql`
    update church_settings set country = case default_country_code
      when '+1' then 'US' when '+44' then 'GB' when '+64' then 'NZ' end
    where default_country_code in ('+1', '+44', '+64')`.execute(db);
  await db.schema.alterTable('church_settings').dropColumn('default_country_code').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('church_settings')
    .addColumn('default_country_code', 'text', (c) => c.notNull().defaultTo('+61'))
    .execute();
  await sql`
    update church_settings set default_country_code = case country
      when 'US' then '+1' when 'CA' then '+1' when 'GB' then '+44' when 'NZ' then '+64' else '+61' end`.execute(db);
  await db.schema.alterTable('church_settings').dropColumn('country').execute();
}
