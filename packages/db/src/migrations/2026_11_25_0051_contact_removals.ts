import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// The dashboard's 'vs last month' (issue 24 §17): contacts 30 days ago = contacts now − those
// created since + those removed since. Removals (a delete, a merge, a bulk delete) are counted per
// church and day by a statement-level trigger, so no delete path can forget. A church's own
// deletion cascades to its contacts and to its counts (the trigger skips a church being deleted).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('contact_removals_daily')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('removed', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('contact_removals_daily_pkey', ['user_id', 'day'])
    .execute();
  await sql`
    create function count_contact_removals() returns trigger language plpgsql as $$
    begin
      insert into contact_removals_daily (user_id, day, removed)
      select o.user_id, current_date, count(*) from old_rows o
      where exists (select 1 from users u where u.id = o.user_id)
      group by o.user_id
      on conflict (user_id, day) do update set removed = contact_removals_daily.removed + excluded.removed;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger contacts_removed after delete on contacts
    referencing old table as old_rows for each statement execute function count_contact_removals()`.execute(db);
  // Row-level security like every church table (0048).
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  await sql.raw(`alter table contact_removals_daily enable row level security`).execute(db);
  await sql.raw(`create policy church_rows on contact_removals_daily using (${rule}) with check (${rule})`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger contacts_removed on contacts`.execute(db);
  await sql`drop function count_contact_removals()`.execute(db);
  await db.schema.dropTable('contact_removals_daily').execute();
}
