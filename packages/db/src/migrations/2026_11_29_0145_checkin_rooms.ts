import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Children's check-in, set-up. `checkin_services`: the times a church runs check-in at (a weekday
// and a start time, e.g. Sunday 9:00). `checkin_rooms`: rooms and classes, each for an age range in
// months or a range of school grades (-1 pre-K, 0 kindergarten, 1–12), with an optional capacity;
// `checkin_room_services` the services a room runs at, `checkin_room_closures` the dates it is closed.
// A child's check-in details live on the child (`contact_children`: grade, allergies, medical note,
// the staff-only custody note) and `checkin_child_adults` (adults authorised, or not, to pick the
// child up). `checkin_note_reads`: every read of a child's medical or custody note (an audit log).
// `contacts_phone_last4_idx`: a family found by the last four digits of a phone.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table checkin_services (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      name text not null,
      weekday smallint not null check (weekday between 0 and 6),
      starts_at time not null,
      created_at timestamptz not null default now(),
      unique (id, user_id)
    )`.execute(db);
  await sql`create index checkin_services_church_idx on checkin_services (user_id)`.execute(db);
  await sql`
    create table checkin_rooms (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      name text not null,
      age_min_months integer check (age_min_months between 0 and 300),
      age_max_months integer check (age_max_months between 0 and 300),
      grade_min smallint check (grade_min between -1 and 12),
      grade_max smallint check (grade_max between -1 and 12),
      capacity integer check (capacity between 1 and 10000),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (id, user_id),
      check (age_min_months is null or age_max_months is null or age_min_months <= age_max_months),
      check (grade_min is null or grade_max is null or grade_min <= grade_max)
    )`.execute(db);
  await sql`create index checkin_rooms_church_idx on checkin_rooms (user_id)`.execute(db);
  await sql`
    create table checkin_room_services (
      user_id integer not null,
      room_id integer not null,
      service_id integer not null,
      primary key (room_id, service_id),
      foreign key (room_id, user_id) references checkin_rooms (id, user_id) on delete cascade,
      foreign key (service_id, user_id) references checkin_services (id, user_id) on delete cascade
    )`.execute(db);
  await sql`create index checkin_room_services_service_idx on checkin_room_services (service_id)`.execute(db);
  await sql`
    create table checkin_room_closures (
      user_id integer not null,
      room_id integer not null,
      day date not null,
      primary key (room_id, day),
      foreign key (room_id, user_id) references checkin_rooms (id, user_id) on delete cascade
    )`.execute(db);

  await sql`alter table contact_children
    add column grade smallint check (grade between -1 and 12),
    add column allergies text,
    add column medical_notes text,
    add column custody_note text`.execute(db);
  await sql`
    create table checkin_child_adults (
      id serial primary key,
      user_id integer not null,
      child_id integer not null,
      name text not null,
      relationship text,
      phone text,
      authorised boolean not null,
      created_at timestamptz not null default now(),
      foreign key (child_id, user_id) references contact_children (id, user_id) on delete cascade
    )`.execute(db);
  await sql`create index checkin_child_adults_child_idx on checkin_child_adults (child_id)`.execute(db);
  await sql`
    create table checkin_note_reads (
      id bigserial primary key,
      user_id integer not null references users(id) on delete cascade,
      child_id integer not null,
      note text not null check (note in ('medical', 'custody')),
      reader_kind text not null check (reader_kind in ('user', 'api_key', 'station')),
      reader_id integer,
      purpose text not null,
      read_at timestamptz not null default now(),
      foreign key (child_id, user_id) references contact_children (id, user_id) on delete cascade
    )`.execute(db);
  await sql`create index checkin_note_reads_church_idx on checkin_note_reads (user_id, read_at desc)`.execute(db);

  // Finding a family at check-in by the last four digits of a phone.
  await sql`create index contacts_phone_last4_idx on contacts
    (user_id, right(coalesce(phone_e164, regexp_replace(phone, '\\D', '', 'g')), 4))`.execute(db);

  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  for (const table of [
    'checkin_services',
    'checkin_rooms',
    'checkin_room_services',
    'checkin_room_closures',
    'checkin_child_adults',
    'checkin_note_reads',
  ]) {
    await sql.raw(`alter table ${table} enable row level security`).execute(db);
    await sql.raw(`create policy church_rows on ${table} using (${rule}) with check (${rule})`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index contacts_phone_last4_idx`.execute(db);
  await sql`drop table checkin_note_reads`.execute(db);
  await sql`drop table checkin_child_adults`.execute(db);
  await sql`alter table contact_children drop column grade, drop column allergies,
    drop column medical_notes, drop column custody_note`.execute(db);
  await sql`drop table checkin_room_closures`.execute(db);
  await sql`drop table checkin_room_services`.execute(db);
  await sql`drop table checkin_rooms`.execute(db);
  await sql`drop table checkin_services`.execute(db);
}
