import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// First-time families a check-in station added while offline. The station names the family and
// each of its children with its own id (`client_id`) and sends them in its offline batch; a
// check-in in the same batch refers to them by those ids. One row for the family (`child_id` null)
// and one per child, unique per church: a batch sent twice adds the family once.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table checkin_offline_families (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      client_id text not null,
      contact_id integer not null,
      child_id integer,
      station_id integer,
      created_at timestamptz not null default now(),
      unique (user_id, client_id),
      foreign key (contact_id, user_id) references contacts (id, user_id) on delete cascade,
      foreign key (child_id, user_id) references contact_children (id, user_id) on delete cascade,
      foreign key (station_id, user_id) references checkin_stations (id, user_id) on delete set null (station_id)
    )`.execute(db);
  await sql`create index checkin_offline_families_contact_idx on checkin_offline_families (contact_id)`.execute(db);
  await sql`create index checkin_offline_families_child_idx on checkin_offline_families (child_id)`.execute(db);

  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  await sql`alter table checkin_offline_families enable row level security`.execute(db);
  await sql
    .raw(`create policy church_rows on checkin_offline_families using (${rule}) with check (${rule})`)
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table checkin_offline_families`.execute(db);
}
