import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Groups (small groups, classes, teams, or a church's own types): what a group is and when and
// where it meets (`groups`: a weekday and time weekly, every other week from `starts_on`, or
// monthly on the nth weekday; or 'by arrangement'; the address is the leaders', the public sees
// only `area` at `area_precision` 'suburb', or nothing at 'none'); its people (`group_members`:
// role leader or member, joined, `left_on` once they left, kept for the attendance history);
// requests to join from the public finder (`group_join_requests`); its meetings
// (`group_meetings`: one a day per group, visitors by name) and who came (`group_attendance`).
// `group_attendance_keys`: the client keys of attendance already applied to a meeting, so an
// offline phone sending the same submission twice records it once.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table groups (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      name text not null,
      type text not null default 'Small group',
      description text,
      image_url text,
      frequency text not null default 'weekly'
        check (frequency in ('weekly', 'every_other_week', 'monthly', 'by_arrangement')),
      weekday smallint check (weekday between 0 and 6),
      meets_at time,
      week_of_month smallint check (week_of_month between 1 and 5),
      starts_on date,
      address text,
      area text,
      area_precision text not null default 'suburb' check (area_precision in ('suburb', 'none')),
      latitude double precision,
      longitude double precision,
      tags text[] not null default '{}',
      capacity integer check (capacity > 0),
      join_mode text not null default 'request' check (join_mode in ('open', 'request', 'closed')),
      archived_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index groups_church_idx on groups (user_id, name)`.execute(db);

  await sql`
    create table group_members (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      group_id integer not null references groups(id) on delete cascade,
      contact_id integer not null references contacts(id) on delete cascade,
      role text not null default 'member' check (role in ('leader', 'member')),
      joined_on date not null default current_date,
      left_on date,
      created_at timestamptz not null default now(),
      unique (group_id, contact_id)
    )`.execute(db);
  await sql`create index group_members_contact_idx on group_members (contact_id)`.execute(db);

  await sql`
    create table group_join_requests (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      group_id integer not null references groups(id) on delete cascade,
      contact_id integer references contacts(id) on delete set null,
      name text not null,
      email text,
      phone text,
      note text,
      status text not null default 'pending' check (status in ('pending', 'approved', 'declined')),
      decided_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index group_join_requests_group_idx on group_join_requests (group_id, status)`.execute(db);
  await sql`create index group_join_requests_contact_idx on group_join_requests (contact_id) where contact_id is not null`.execute(
    db,
  );

  await sql`
    create table group_meetings (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      group_id integer not null references groups(id) on delete cascade,
      meets_on date not null,
      meets_at time,
      note text,
      visitors text[] not null default '{}',
      attendance_recorded_at timestamptz,
      created_at timestamptz not null default now(),
      unique (group_id, meets_on)
    )`.execute(db);
  await sql`create index group_meetings_church_date_idx on group_meetings (user_id, meets_on, id)`.execute(db);

  await sql`
    create table group_attendance (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      meeting_id integer not null references group_meetings(id) on delete cascade,
      contact_id integer not null references contacts(id) on delete cascade,
      unique (meeting_id, contact_id)
    )`.execute(db);
  await sql`create index group_attendance_contact_idx on group_attendance (contact_id)`.execute(db);

  await sql`
    create table group_attendance_keys (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      meeting_id integer not null references group_meetings(id) on delete cascade,
      client_key text not null,
      created_at timestamptz not null default now(),
      unique (meeting_id, client_key)
    )`.execute(db);

  // Row-level security like every church table (0048).
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  for (const t of TABLES) {
    await sql.raw(`alter table ${t} enable row level security`).execute(db);
    await sql.raw(`create policy church_rows on ${t} using (${rule}) with check (${rule})`).execute(db);
  }
}

const TABLES = [
  'groups',
  'group_members',
  'group_join_requests',
  'group_meetings',
  'group_attendance',
  'group_attendance_keys',
];

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [...TABLES].reverse()) await sql.raw(`drop table ${t}`).execute(db);
}
