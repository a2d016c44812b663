import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('church_settings')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('postal_address', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('email_campaigns')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('draft')
        .check(sql`status in ('draft', 'scheduled', 'sending', 'sent', 'failed')`),
    )
    .addColumn('list_ids', sql`integer[]`, (c) => c.notNull().defaultTo(sql`'{}'::integer[]`))
    .addColumn('scheduled_for', 'timestamptz')
    .addColumn('started_at', 'timestamptz')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('recipient_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('email_campaigns_id_user_key', ['id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('email_campaigns_user_idx')
    .on('email_campaigns')
    .columns(['user_id', 'created_at'])
    .execute();
  await sql`create index email_campaigns_scheduled_idx on email_campaigns (scheduled_for) where status = 'scheduled'`.execute(
    db,
  );

  // One row per recipient of a campaign (email now, SMS later): the snapshot taken at send time.
  await db.schema
    .createTable('deliveries')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('email', 'sms')`))
    .addColumn('campaign_id', 'integer', (c) => c.notNull())
    .addColumn('contact_id', 'integer', (c) => c.references('contacts.id').onDelete('set null'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'sending', 'sent', 'failed', 'delivered', 'undelivered')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('provider_message_id', 'text')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index deliveries_contact_key on deliveries (channel, campaign_id, contact_id)`.execute(db);
  await sql`create unique index deliveries_address_key on deliveries (channel, campaign_id, lower(address))`.execute(
    db,
  );
  await sql`create index deliveries_work_idx on deliveries (channel, campaign_id, id) where status in ('pending', 'sending')`.execute(
    db,
  );
  await sql`create index deliveries_provider_idx on deliveries (provider_message_id) where provider_message_id is not null`.execute(
    db,
  );

  await db.schema
    .createTable('delivery_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('delivery_id', 'bigint', (c) => c.notNull().references('deliveries.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) =>
      c.notNull().check(sql`type in ('open', 'click', 'unsubscribe', 'bounce', 'delivered', 'undelivered', 'failed')`),
    )
    .addColumn('url', 'text')
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('delivery_events_delivery_idx')
    .on('delivery_events')
    .columns(['delivery_id', 'type'])
    .execute();

  // Messages the local adapters "sent" (no SMTP or SMS provider configured): the church can read them.
  await db.schema
    .createTable('outbox_messages')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('email', 'sms')`))
    .addColumn('campaign_id', 'integer')
    .addColumn('delivery_id', 'bigint', (c) => c.references('deliveries.id').onDelete('set null'))
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('html', 'text')
    .addColumn('text', 'text')
    .addColumn('headers', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('outbox_messages_user_idx')
    .on('outbox_messages')
    .columns(['user_id', 'channel', 'created_at'])
    .execute();
  await db.schema
    .createIndex('outbox_messages_campaign_idx')
    .on('outbox_messages')
    .columns(['channel', 'campaign_id'])
    .execute();

  // Shared per-second counters for send rate limits (every worker process draws from the same one).
  await db.schema
    .createTable('rate_slots')
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('second', 'bigint', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('rate_slots_pk', ['bucket', 'second'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'rate_slots',
    'outbox_messages',
    'delivery_events',
    'deliveries',
    'email_campaigns',
    'church_settings',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
