import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('social_posts')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('scheduled_for', 'timestamptz', (c) => c.notNull())
    .addColumn('platforms', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('scheduled')
        .check(sql`status in ('scheduled', 'posted', 'failed', 'draft')`),
    )
    .addColumn('image_url', 'text')
    .addColumn('link_url', 'text')
    .addColumn('tags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('posted_at', 'timestamptz')
    // Publishing state (the delivery engine's claim, lease and retry columns, for one post).
    .addColumn('publish_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('publish_next_attempt_at', 'timestamptz')
    .addColumn('publish_claimed_at', 'timestamptz')
    .addColumn('publish_error', 'text')
    .addColumn('publish_response_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The calendar reads a church's posts by time range.
  await db.schema
    .createIndex('social_posts_user_scheduled_idx')
    .on('social_posts')
    .columns(['user_id', 'scheduled_for'])
    .execute();
  // The sweep looks for scheduled posts whose time has come.
  await sql`create index social_posts_due_idx on social_posts (scheduled_for) where status = 'scheduled'`.execute(db);

  // Per church: the outgoing webhook that publishes posts, and the calendar feed's token.
  await db.schema
    .createTable('social_settings')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('webhook_url', 'text')
    .addColumn('webhook_secret', 'text')
    .addColumn('feed_token', 'text', (c) => c.unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('social_settings').execute();
  await db.schema.dropTable('social_posts').execute();
}
