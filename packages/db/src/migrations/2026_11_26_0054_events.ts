import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// One log of what happened (issue 27): an event is written in the transaction of the change it
// records (an outbox), so there is no event without its change and no change without its event.
// The id grows with the order events commit in within a church: a writer holds the church's
// advisory lock from its events to its commit (services/events/record.ts), so a reader paging by
// `id > after` never skips one that commits late.
//
// A deleted contact's events stay, anonymised: a trigger drops the payload's `person` (every
// payload keeps a person's details there) and the contact link. A merge moves the events first.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table events (
      id bigint generated always as identity primary key,
      user_id integer not null references users(id) on delete cascade,
      type text not null,
      version smallint not null default 1,
      occurred_at timestamptz not null default now(),
      contact_id integer,
      actor_kind text not null check (actor_kind in ('user', 'api_key', 'public', 'system')),
      actor_id integer,
      payload jsonb not null default '{}'::jsonb
    )`.execute(db);
  await sql`create index events_church_idx on events (user_id, id)`.execute(db);
  await sql`create index events_church_type_idx on events (user_id, type, id)`.execute(db);
  await sql`create index events_contact_idx on events (contact_id, id) where contact_id is not null`.execute(db);
  await sql`create index events_church_time_idx on events (user_id, occurred_at)`.execute(db);

  await sql`
    create function anonymise_contact_events() returns trigger language plpgsql as $$
    begin
      update events e set payload = e.payload - 'person', contact_id = null
      from old_rows o where e.contact_id = o.id;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger contacts_events_anonymised after delete on contacts
    referencing old table as old_rows for each statement execute function anonymise_contact_events()`.execute(db);

  await db.schema
    .alterTable('church_settings')
    .addColumn('event_retention_days', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(730)
        .check(sql`event_retention_days between 30 and 3650`),
    )
    .execute();

  // Row-level security like every church table (0048).
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  await sql.raw(`alter table events enable row level security`).execute(db);
  await sql.raw(`create policy church_rows on events using (${rule}) with check (${rule})`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('church_settings').dropColumn('event_retention_days').execute();
  await sql`drop trigger contacts_events_anonymised on contacts`.execute(db);
  await sql`drop function anonymise_contact_events()`.execute(db);
  await sql`drop table events`.execute(db);
}
