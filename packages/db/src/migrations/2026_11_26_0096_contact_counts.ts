import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// A church's number of contacts without counting them (issue 33 §2): `count(*)` of a church's
// contacts grows with the church (14 ms at 100,000 under row-level security), and the dashboard and
// the contacts list's first page ask for it on every load. Statement-level triggers write one row
// per inserting or deleting statement: (church, day, added, removed). The total is the sum of the
// church's rows; the contacts added in the last 30 days the sum of its recent `added`. Rows are
// appended, never updated, so writers in one church never wait for each other (a long import
// and a sign-up at the same time). The nightly maintenance folds each church's past days into one
// row per day (`compact_contact_counts`). The existing contacts are counted here, by the day they
// were created. A church's own deletion cascades to its rows; the triggers skip a church being
// deleted (as contact_removals_daily's, migration 0051).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('contact_counts')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('added', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('removed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create index contact_counts_user_day_idx on contact_counts (user_id, day) include (added, removed)`.execute(
    db,
  );
  await sql`
    insert into contact_counts (user_id, day, added)
    select user_id, created_at::date, count(*) from contacts group by user_id, created_at::date`.execute(db);
  await sql`
    create function count_contacts_added() returns trigger language plpgsql as $$
    begin
      insert into contact_counts (user_id, day, added)
      select n.user_id, current_date, count(*) from new_rows n group by n.user_id;
      return null;
    end $$`.execute(db);
  await sql`
    create function count_contacts_removed() returns trigger language plpgsql as $$
    begin
      insert into contact_counts (user_id, day, removed)
      select o.user_id, current_date, count(*) from old_rows o
      where exists (select 1 from users u where u.id = o.user_id)
      group by o.user_id;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger contacts_counted_in after insert on contacts
    referencing new table as new_rows for each statement execute function count_contacts_added()`.execute(db);
  await sql`
    create trigger contacts_counted_out after delete on contacts
    referencing old table as old_rows for each statement execute function count_contacts_removed()`.execute(db);
  // Folds the rows of days before today into one per church and day. One statement: a reader sees
  // the rows before or after, never half; rows written meanwhile are kept (only those read are deleted).
  await sql`
    create function compact_contact_counts() returns integer language sql as $$
      with gone as (
        delete from contact_counts where day < current_date
        and (user_id, day) in (
          select user_id, day from contact_counts where day < current_date group by user_id, day having count(*) > 1)
        returning user_id, day, added, removed
      ), folded as (
        insert into contact_counts (user_id, day, added, removed)
        select user_id, day, sum(added), sum(removed) from gone group by user_id, day
        returning 1
      )
      select count(*)::int from folded
    $$`.execute(db);
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  await sql.raw(`alter table contact_counts enable row level security`).execute(db);
  await sql.raw(`create policy church_rows on contact_counts using (${rule}) with check (${rule})`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger contacts_counted_in on contacts`.execute(db);
  await sql`drop trigger contacts_counted_out on contacts`.execute(db);
  await sql`drop function count_contacts_added()`.execute(db);
  await sql`drop function count_contacts_removed()`.execute(db);
  await sql`drop function compact_contact_counts()`.execute(db);
  await db.schema.dropTable('contact_counts').execute();
}
