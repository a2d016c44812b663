import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Every row carries its church (user_id). Links between rows use composite foreign keys
// (id, user_id), so a list membership, family link or child can never join two churches' rows.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);

  await db.schema
    .createTable('contacts')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('phone_e164', 'text')
    .addColumn('tags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('date_of_birth', 'date')
    .addColumn('email_consent', 'text', (c) =>
      c
        .notNull()
        .defaultTo('subscribed')
        .check(sql`email_consent in ('subscribed', 'unsubscribed')`),
    )
    .addColumn('email_consent_at', 'timestamptz')
    .addColumn('email_consent_source', 'text')
    .addColumn('sms_consent', 'text', (c) =>
      c
        .notNull()
        .defaultTo('subscribed')
        .check(sql`sms_consent in ('subscribed', 'unsubscribed')`),
    )
    .addColumn('sms_consent_at', 'timestamptz')
    .addColumn('sms_consent_source', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('contacts_id_user_key', ['id', 'user_id'])
    .execute();
  await sql`create index contacts_user_name_idx on contacts (user_id, lower(last_name), lower(first_name), id)`.execute(
    db,
  );
  await sql`create index contacts_user_email_idx on contacts (user_id, lower(email))`.execute(db);
  await sql`create index contacts_user_phone_idx on contacts (user_id, phone_e164)`.execute(db);
  await sql`create index contacts_member_idx on contacts (user_id) where (metadata->>'isChurchMember') = 'true'`.execute(
    db,
  );
  await sql`create index contacts_staff_idx on contacts (user_id) where (metadata->>'isServiceStaff') = 'true'`.execute(
    db,
  );
  await sql`create index contacts_search_trgm_idx on contacts using gin (
    (lower(first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' ' || coalesce(phone, '') || ' ' || coalesce(phone_e164, ''))) gin_trgm_ops
  )`.execute(db);

  await db.schema
    .createTable('contact_consent_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('contact_id', 'integer', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('email', 'sms')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('subscribed', 'unsubscribed')`))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addForeignKeyConstraint(
      'contact_consent_events_contact_fk',
      ['contact_id', 'user_id'],
      'contacts',
      ['id', 'user_id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('contact_consent_events_contact_idx')
    .on('contact_consent_events')
    .columns(['contact_id', 'at'])
    .execute();

  await db.schema
    .createTable('contact_lists')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('type', 'text', (c) =>
      c
        .notNull()
        .defaultTo('both')
        .check(sql`type in ('email', 'sms', 'both')`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('contact_lists_id_user_key', ['id', 'user_id'])
    .execute();
  await db.schema.createIndex('contact_lists_user_idx').on('contact_lists').columns(['user_id', 'name']).execute();

  await db.schema
    .createTable('contacts_in_lists')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('contact_id', 'integer', (c) => c.notNull())
    .addColumn('list_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('contacts_in_lists_pk', ['list_id', 'contact_id'])
    .addForeignKeyConstraint(
      'contacts_in_lists_contact_fk',
      ['contact_id', 'user_id'],
      'contacts',
      ['id', 'user_id'],
      (fk) => fk.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      'contacts_in_lists_list_fk',
      ['list_id', 'user_id'],
      'contact_lists',
      ['id', 'user_id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('contacts_in_lists_contact_idx').on('contacts_in_lists').column('contact_id').execute();

  await db.schema
    .createTable('contact_family_links')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('contact1_id', 'integer', (c) => c.notNull())
    .addColumn('contact2_id', 'integer', (c) => c.notNull())
    .addColumn('relationship', 'text', (c) =>
      c.notNull().check(sql`relationship in ('spouse', 'parent', 'child', 'sibling', 'other')`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('contact_family_links_not_self', sql`contact1_id <> contact2_id`)
    .addForeignKeyConstraint(
      'contact_family_links_c1_fk',
      ['contact1_id', 'user_id'],
      'contacts',
      ['id', 'user_id'],
      (fk) => fk.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      'contact_family_links_c2_fk',
      ['contact2_id', 'user_id'],
      'contacts',
      ['id', 'user_id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await sql`create unique index contact_family_links_pair_key on contact_family_links (least(contact1_id, contact2_id), greatest(contact1_id, contact2_id))`.execute(
    db,
  );
  await db.schema.createIndex('contact_family_links_c2_idx').on('contact_family_links').column('contact2_id').execute();

  await db.schema
    .createTable('child_groups')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('age_min', 'integer')
    .addColumn('age_max', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('child_groups_id_user_key', ['id', 'user_id'])
    .execute();

  await db.schema
    .createTable('contact_children')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('parent_contact_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('date_of_birth', 'date')
    .addColumn('age', 'integer')
    .addColumn('group_id', 'integer')
    .addColumn('notes', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('contact_children_id_user_key', ['id', 'user_id'])
    .addForeignKeyConstraint(
      'contact_children_parent_fk',
      ['parent_contact_id', 'user_id'],
      'contacts',
      ['id', 'user_id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  // A group of the same church; deleting the group leaves the child without one.
  await sql`alter table contact_children add constraint contact_children_group_fk
    foreign key (group_id, user_id) references child_groups (id, user_id) on delete set null (group_id)`.execute(db);
  await db.schema
    .createIndex('contact_children_parent_idx')
    .on('contact_children')
    .column('parent_contact_id')
    .execute();

  await db.schema
    .createTable('children_in_lists')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('child_id', 'integer', (c) => c.notNull())
    .addColumn('list_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('children_in_lists_pk', ['list_id', 'child_id'])
    .addForeignKeyConstraint(
      'children_in_lists_child_fk',
      ['child_id', 'user_id'],
      'contact_children',
      ['id', 'user_id'],
      (fk) => fk.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      'children_in_lists_list_fk',
      ['list_id', 'user_id'],
      'contact_lists',
      ['id', 'user_id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();

  await db.schema
    .createTable('contact_imports')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('csv', 'text', (c) => c.notNull())
    .addColumn('headers', 'jsonb', (c) => c.notNull())
    .addColumn('mapping', 'jsonb')
    .addColumn('list_id', 'integer')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('uploaded')
        .check(sql`status in ('uploaded', 'queued', 'running', 'completed', 'failed')`),
    )
    .addColumn('total_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('processed_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await sql`alter table contact_imports add constraint contact_imports_list_fk
    foreign key (list_id, user_id) references contact_lists (id, user_id) on delete set null (list_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'contact_imports',
    'children_in_lists',
    'contact_children',
    'child_groups',
    'contact_family_links',
    'contacts_in_lists',
    'contact_lists',
    'contact_consent_events',
    'contacts',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
