import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
export async function up(db: Kysely<any>): Promise<void> {
  // Show Up projects: public to read, written only by the owning church (user_id).
  await db.schema
    .createTable('show_up_projects')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('short_description', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('latitude', sql`numeric(10, 6)`)
    .addColumn('longitude', sql`numeric(10, 6)`)
    .addColumn('target_amount', sql`numeric(10, 2)`, (c) => c.notNull().check(sql`target_amount > 0`))
    .addColumn('raised_amount', sql`numeric(10, 2)`, (c) => c.notNull().defaultTo(0))
    .addColumn('donations_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('category', 'text', (c) => c.notNull().defaultTo('community'))
    .addColumn('tags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('cover_image', 'text')
    .addColumn('cover_thumbnail_url', 'text')
    .addColumn('cover_upload_id', 'integer')
    // [{ id: upload id or null, url, thumbnailUrl }]
    .addColumn('images', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('start_date', 'date', (c) => c.notNull().defaultTo(sql`current_date`))
    .addColumn('end_date', 'date')
    .addColumn('organization_name', 'text', (c) => c.notNull())
    .addColumn('contact_email', 'text', (c) => c.notNull())
    .addColumn('contact_phone', 'text')
    .addColumn('website', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('show_up_projects_list_idx')
    .on('show_up_projects')
    .columns(['status', 'created_at desc', 'id desc'])
    .execute();
  await db.schema
    .createIndex('show_up_projects_category_idx')
    .on('show_up_projects')
    .columns(['status', 'category', 'created_at desc'])
    .execute();
  await db.schema.createIndex('show_up_projects_user_idx').on('show_up_projects').columns(['user_id']).execute();

  await db.schema
    .createTable('show_up_updates')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('show_up_projects.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('images', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('show_up_updates_project_idx')
    .on('show_up_updates')
    .columns(['project_id', 'created_at desc'])
    .execute();

  // Donations: user_id is the church that owns the project (its Donations tab); a donor has no account.
  await db.schema
    .createTable('show_up_donations')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('show_up_projects.id').onDelete('cascade'))
    .addColumn('amount', sql`numeric(10, 2)`, (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('usd'))
    .addColumn('donor_name', 'text')
    .addColumn('donor_email', 'text')
    .addColumn('is_anonymous', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('message', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'completed', 'failed', 'refunded')`),
    )
    .addColumn('failure_reason', 'text')
    .addColumn('stripe_payment_id', 'text', (c) => c.unique())
    .addColumn('stripe_client_secret', 'text')
    .addColumn('stripe_customer_id', 'text')
    .addColumn('stripe_account_id', 'text')
    .addColumn('platform_fee_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('is_demo', 'boolean', (c) => c.notNull().defaultTo(false))
    // Where the gift came from (first-party lsrc): qr, link, email, sms, page, and that thing's id.
    .addColumn('source_kind', 'text', (c) => c.check(sql`source_kind in ('qr', 'link', 'email', 'sms', 'page')`))
    .addColumn('source_id', 'integer')
    .addColumn('receipt_token', 'text', (c) => c.notNull().unique())
    .addColumn('receipt_url', 'text')
    .addColumn('receipt_sent_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('refunded_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('show_up_donations_project_idx')
    .on('show_up_donations')
    .columns(['project_id', 'status', 'created_at desc'])
    .execute();
  await db.schema
    .createIndex('show_up_donations_user_idx')
    .on('show_up_donations')
    .columns(['user_id', 'created_at desc'])
    .execute();

  // Every Stripe event handled, by id: a redelivered event changes nothing twice.
  await db.schema
    .createTable('stripe_webhook_events')
    .addColumn('event_id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payment_intent_id', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // A church's own Stripe account (Connect Express), when STRIPE_CONNECT=on.
  await db.schema
    .createTable('church_stripe_accounts')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('stripe_account_id', 'text', (c) => c.notNull().unique())
    .addColumn('charges_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('details_submitted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('church_stripe_accounts').execute();
  await db.schema.dropTable('stripe_webhook_events').execute();
  await db.schema.dropTable('show_up_donations').execute();
  await db.schema.dropTable('show_up_updates').execute();
  await db.schema.dropTable('show_up_projects').execute();
}
