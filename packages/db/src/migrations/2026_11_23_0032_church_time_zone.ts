import type { Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
// A church's time zone (IANA name): campaign times are entered and shown in it, stored in UTC.
// Registration sets it from the browser; churches that registered before have UTC until they choose.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('church_settings')
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('church_settings').dropColumn('time_zone').execute();
}
