import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
// Issue 12 §13: a church earns trust by verifying its account email. Until then its campaigns reach
// at most a set number of people a day; an administrator may set a church's own daily limit.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('email_verified_at', 'timestamptz')
    // null: the default rule (unverified: UNVERIFIED_DAILY_RECIPIENTS; verified: no limit).
    .addColumn('daily_recipient_limit', 'integer', (c) => c.check(sql`daily_recipient_limit >= 0`))
    .execute();
  // Accounts that existed before the rule keep sending as they did: they count as verified.
  await sql`update users set email_verified_at = now()`.execute(db);

  // Single-use links: only the SHA-256 of the token is kept, with the address it was sent to.
  await db.schema
    .createTable('email_verification_tokens')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('email_verification_tokens_user_idx')
    .on('email_verification_tokens')
    .column('user_id')
    .execute();

  // What each campaign start enqueued: the daily limit counts these (deleting a sent campaign,
  // which deletes its deliveries, does not give its recipients back).
  await db.schema
    .createTable('campaign_recipient_usage')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('email', 'sms')`))
    .addColumn('campaign_id', 'integer', (c) => c.notNull())
    .addColumn('recipients', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('campaign_recipient_usage_user_idx')
    .on('campaign_recipient_usage')
    .columns(['user_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('campaign_recipient_usage').execute();
  await db.schema.dropTable('email_verification_tokens').execute();
  await db.schema.alterTable('users').dropColumn('daily_recipient_limit').dropColumn('email_verified_at').execute();
}
