import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
// The service planner: plans with ordered items, item types (seeded per church on first use),
// songs, team members with positions and blockout dates, assignments with answer tokens.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('service_item_types')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull().defaultTo('gray'))
    .addColumn('icon', 'text', (c) => c.notNull().defaultTo('circle'))
    .addColumn('description', 'text')
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('service_item_types_user_name_key', ['user_id', 'name'])
    .execute();

  await db.schema
    .createTable('service_plans')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('date', 'date', (c) => c.notNull())
    .addColumn('start_time', 'text')
    .addColumn('end_time', 'text')
    .addColumn('location', 'text')
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('draft')
        .check(sql`status in ('draft', 'published', 'completed')`),
    )
    .addColumn('theme', 'text')
    .addColumn('notes', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('service_plans_user_date_idx').on('service_plans').columns(['user_id', 'date']).execute();

  await db.schema
    .createTable('service_items')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('service_plan_id', 'integer', (c) => c.notNull().references('service_plans.id').onDelete('cascade'))
    .addColumn('service_item_type_id', 'integer', (c) => c.references('service_item_types.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('duration', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('notes', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('content', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('start_time', 'text')
    .addColumn('is_rehearsal_needed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('service_items_plan_idx')
    .on('service_items')
    .columns(['service_plan_id', 'position'])
    .execute();

  await db.schema
    .createTable('songs')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('artist', 'text')
    .addColumn('lyrics', 'text')
    .addColumn('chords', 'text')
    .addColumn('key_signature', 'text')
    .addColumn('tempo', 'integer')
    .addColumn('time_signature', 'text')
    .addColumn('ccli_number', 'text')
    .addColumn('notes', 'text')
    .addColumn('tags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('audio_url', 'text')
    .addColumn('attachments', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('songs_user_title_idx').on('songs').columns(['user_id', 'title']).execute();

  await db.schema
    .createTable('service_plan_songs')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('service_plan_id', 'integer', (c) => c.notNull().references('service_plans.id').onDelete('cascade'))
    .addColumn('service_item_id', 'integer', (c) =>
      c.notNull().unique().references('service_items.id').onDelete('cascade'),
    )
    .addColumn('song_id', 'integer', (c) => c.notNull().references('songs.id').onDelete('cascade'))
    .addColumn('key_signature', 'text')
    .addColumn('notes', 'text')
    .addColumn('arrangement', 'text')
    .execute();
  await db.schema
    .createIndex('service_plan_songs_plan_idx')
    .on('service_plan_songs')
    .column('service_plan_id')
    .execute();
  await db.schema.createIndex('service_plan_songs_song_idx').on('service_plan_songs').column('song_id').execute();

  await db.schema
    .createTable('team_positions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('category', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('team_positions_user_idx').on('team_positions').column('user_id').execute();

  await db.schema
    .createTable('team_members')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('contact_id', 'integer', (c) => c.references('contacts.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('notes', 'text')
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('team_members_user_name_idx').on('team_members').columns(['user_id', 'name']).execute();

  await db.schema
    .createTable('team_member_positions')
    .addColumn('team_member_id', 'integer', (c) => c.notNull().references('team_members.id').onDelete('cascade'))
    .addColumn('position_id', 'integer', (c) => c.notNull().references('team_positions.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('team_member_positions_pk', ['team_member_id', 'position_id'])
    .execute();

  await db.schema
    .createTable('team_member_blockouts')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('team_member_id', 'integer', (c) => c.notNull().references('team_members.id').onDelete('cascade'))
    .addColumn('starts_on', 'date', (c) => c.notNull())
    .addColumn('ends_on', 'date', (c) => c.notNull())
    .addColumn('reason', 'text')
    .execute();
  await db.schema
    .createIndex('team_member_blockouts_member_idx')
    .on('team_member_blockouts')
    .columns(['team_member_id', 'starts_on'])
    .execute();

  await db.schema
    .createTable('service_plan_assignments')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('service_plan_id', 'integer', (c) => c.notNull().references('service_plans.id').onDelete('cascade'))
    .addColumn('service_item_id', 'integer', (c) => c.references('service_items.id').onDelete('set null'))
    .addColumn('position_id', 'integer', (c) => c.references('team_positions.id').onDelete('set null'))
    .addColumn('team_member_id', 'integer', (c) => c.notNull().references('team_members.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('scheduled')
        .check(sql`status in ('scheduled', 'confirmed', 'declined')`),
    )
    .addColumn('notes', 'text')
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('requested_at', 'timestamptz')
    .addColumn('responded_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('service_plan_assignments_plan_idx')
    .on('service_plan_assignments')
    .column('service_plan_id')
    .execute();
  await db.schema
    .createIndex('service_plan_assignments_member_idx')
    .on('service_plan_assignments')
    .column('team_member_id')
    .execute();

  // What 'Announce' made from a plan: each draft links back to the plan (email and SMS today).
  await db.schema
    .createTable('service_plan_announcements')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('service_plan_id', 'integer', (c) => c.notNull().references('service_plans.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('service_plan_announcements_plan_idx')
    .on('service_plan_announcements')
    .column('service_plan_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'service_plan_announcements',
    'service_plan_assignments',
    'team_member_blockouts',
    'team_member_positions',
    'team_members',
    'team_positions',
    'service_plan_songs',
    'songs',
    'service_items',
    'service_plans',
    'service_item_types',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
