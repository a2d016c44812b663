import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
export async function up(db: Kysely<any>): Promise<void> {
  const categories = sql`category in ('christmas', 'easter', 'general', 'welcome', 'events', 'sermons', 'giving')`;
  await db.schema
    .createTable('marketing_templates')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('category', 'text', (c) => c.notNull().check(categories))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('email', 'sms', 'print', 'landing-page')`))
    .addColumn('thumbnail', 'text')
    .addColumn('content', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('marketing_packages')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('category', 'text', (c) => c.notNull().check(categories))
    .addColumn('thumbnail', 'text')
    .addColumn('email_template_id', 'integer', (c) => c.references('marketing_templates.id').onDelete('set null'))
    .addColumn('sms_template_id', 'integer', (c) => c.references('marketing_templates.id').onDelete('set null'))
    .addColumn('print_template_id', 'integer', (c) => c.references('marketing_templates.id').onDelete('set null'))
    .addColumn('landing_page_template_id', 'integer', (c) =>
      c.references('marketing_templates.id').onDelete('set null'),
    )
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // A template or a package assigned to a church by an administrator.
  await db.schema
    .createTable('user_templates')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('template_id', 'integer', (c) => c.references('marketing_templates.id').onDelete('cascade'))
    .addColumn('package_id', 'integer', (c) => c.references('marketing_packages.id').onDelete('cascade'))
    .addColumn('assigned_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('user_templates_one_target', sql`(template_id is null) <> (package_id is null)`)
    .execute();
  await sql`create unique index user_templates_template_key on user_templates (user_id, template_id) where template_id is not null`.execute(
    db,
  );
  await sql`create unique index user_templates_package_key on user_templates (user_id, package_id) where package_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_templates').execute();
  await db.schema.dropTable('marketing_packages').execute();
  await db.schema.dropTable('marketing_templates').execute();
}
