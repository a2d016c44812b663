import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('landing_pages')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // Unique across the platform: /p/{slug} is one address space.
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('published', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('published_at', 'timestamptz')
    // The spec's content object plus the ordered blocks of the builder (one zod schema).
    .addColumn('content', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('landing_pages_id_user_key', ['id', 'user_id'])
    .execute();
  await db.schema.createIndex('landing_pages_user_idx').on('landing_pages').columns(['user_id', 'id']).execute();

  // One row per counted view (crawlers and link previews are not counted). No IP and no cookie:
  // visitor_hash is a hash of address and agent with a salt that changes every day.
  await db.schema
    .createTable('landing_page_visits')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('page_id', 'integer', (c) => c.notNull().references('landing_pages.id').onDelete('cascade'))
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('visitor_hash', 'text', (c) => c.notNull())
    // qr | link | email | sms (our own lsrc parameter), utm, referrer, direct
    .addColumn('source_kind', 'text', (c) =>
      c.notNull().check(sql`source_kind in ('qr', 'link', 'email', 'sms', 'utm', 'referrer', 'direct')`),
    )
    // The QR code / campaign id, 'source / medium / campaign', or the referrer's host.
    .addColumn('source_value', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('landing_page_visits_page_day_idx')
    .on('landing_page_visits')
    .columns(['page_id', 'day'])
    .execute();
  await db.schema
    .createIndex('landing_page_visits_user_day_idx')
    .on('landing_page_visits')
    .columns(['user_id', 'day'])
    .execute();
  await db.schema
    .createIndex('landing_page_visits_source_idx')
    .on('landing_page_visits')
    .columns(['source_kind', 'source_value'])
    .execute();

  // A sign-up through a page's form; the contact's consent is confirmed by double opt-in.
  await db.schema
    .createTable('landing_page_signups')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('page_id', 'integer', (c) => c.notNull().references('landing_pages.id').onDelete('cascade'))
    .addColumn('block_id', 'text', (c) => c.notNull())
    .addColumn('contact_id', 'integer', (c) => c.references('contacts.id').onDelete('set null'))
    .addColumn('list_id', 'integer', (c) => c.references('contact_lists.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('source_kind', 'text', (c) =>
      c.notNull().check(sql`source_kind in ('qr', 'link', 'email', 'sms', 'utm', 'referrer', 'direct')`),
    )
    .addColumn('source_value', 'text')
    .addColumn('visitor_hash', 'text', (c) => c.notNull())
    .addColumn('confirm_token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('confirmed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('landing_page_signups_page_idx')
    .on('landing_page_signups')
    .columns(['page_id', 'created_at'])
    .execute();
  await sql`create index landing_page_signups_email_idx on landing_page_signups (lower(email), created_at)`.execute(db);
  await db.schema
    .createIndex('landing_page_signups_visitor_idx')
    .on('landing_page_signups')
    .columns(['visitor_hash', 'created_at'])
    .execute();

  // Each AI generation: the per-church hourly limit and the token use.
  await db.schema
    .createTable('ai_generations')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('ok', 'boolean', (c) => c.notNull())
    .addColumn('prompt_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('completion_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('ai_generations_user_created_idx')
    .on('ai_generations')
    .columns(['user_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ai_generations').execute();
  await db.schema.dropTable('landing_page_signups').execute();
  await db.schema.dropTable('landing_page_visits').execute();
  await db.schema.dropTable('landing_pages').execute();
}
