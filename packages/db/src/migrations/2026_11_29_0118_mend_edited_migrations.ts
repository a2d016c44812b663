import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Two landed migrations were edited afterwards, so a database migrated between the
// two commits lacks what the edit added, silently:
// - 0055_webhooks gained `webhook_deliveries.lease_until` and `fillfactor = 70` (6a62a1b);
// - 0092_email_warmup gained the index `church_settings_sms_from_idx` (8ef6425).
// This adds each when missing (a database migrated later already has them: nothing changes). From
// now on `landed.test.ts` holds the hash of every landed migration, so an edit fails the tests.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table webhook_deliveries add column if not exists lease_until timestamptz`.execute(db);
  await sql`alter table webhook_deliveries set (fillfactor = 70)`.execute(db);
  await sql`
    create index if not exists church_settings_sms_from_idx on church_settings (sms_from_number)
    where sms_from_number is not null and sms_from_number <> ''`.execute(db);
}

// What it adds belongs to 0055 and 0092 on every other database: nothing to undo.
export async function down(): Promise<void> {}
