import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sms_campaigns')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('draft')
        .check(sql`status in ('draft', 'scheduled', 'ready', 'sending', 'sent', 'failed')`),
    )
    .addColumn('list_ids', sql`integer[]`, (c) => c.notNull().defaultTo(sql`'{}'::integer[]`))
    .addColumn('scheduled_for', 'timestamptz')
    .addColumn('started_at', 'timestamptz')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('recipient_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('sms_campaigns_id_user_key', ['id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('sms_campaigns_user_idx')
    .on('sms_campaigns')
    .columns(['user_id', 'created_at'])
    .execute();

  // A church may send from its own number; unset, the platform's TWILIO_FROM_NUMBER.
  await db.schema.alterTable('church_settings').addColumn('sms_from_number', 'text').execute();

  // Inbound texts (opt-out keywords), one row per provider message: a retried webhook changes nothing twice.
  await db.schema
    .createTable('sms_inbound_messages')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('message_sid', 'text', (c) => c.notNull().unique())
    .addColumn('from_number', 'text', (c) => c.notNull())
    .addColumn('to_number', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('keyword', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sms_inbound_messages').execute();
  await db.schema.alterTable('church_settings').dropColumn('sms_from_number').execute();
  await db.schema.dropTable('sms_campaigns').execute();
}
