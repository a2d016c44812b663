import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Check-in stations and check-ins. A station is a browser paired once by staff: `pairing_code_hash`
// holds the hash of its one-time code until it is redeemed (or expires), then `token_hash` the hash
// of the station's cookie. Its printer: a print bridge on the church's network (`printer_bridge_url`
// and the secret the station sends it) or none (labels as PDF). `checkin_family_cards`: the token
// of a family's QR code (portal, reusable card).
//
// `checkin_codes`: the security codes of a day. A code is `reserved` for a station's offline use,
// `active` while its family's children are checked in, `released` once they are all picked up; a
// partial unique index keeps a code unique among the day's unreleased codes of the church.
// `checkins`: one child in one room (at one service) on one day, with its code, who checked it in
// and out, and the overrides staff made. `client_id` is the station's id of an offline check-in,
// so a batch sent twice is recorded once.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table checkin_stations (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      name text not null,
      kind text not null check (kind in ('self', 'manned', 'room')),
      room_id integer,
      printer text not null default 'pdf' check (printer in ('pdf', 'bridge')),
      printer_bridge_url text,
      printer_bridge_secret text,
      label_size text not null default '2.25x1.25' check (label_size in ('2.25x1.25', '4x2')),
      pairing_code_hash text unique,
      pairing_expires_at timestamptz,
      token_hash text unique,
      paired_at timestamptz,
      paired_by integer references users(id) on delete set null,
      last_seen_at timestamptz,
      created_at timestamptz not null default now(),
      unique (id, user_id),
      foreign key (room_id, user_id) references checkin_rooms (id, user_id) on delete set null (room_id)
    )`.execute(db);
  await sql`create index checkin_stations_church_idx on checkin_stations (user_id)`.execute(db);
  await sql`
    create table checkin_family_cards (
      id serial primary key,
      user_id integer not null,
      contact_id integer not null,
      token text not null unique,
      created_at timestamptz not null default now(),
      unique (user_id, contact_id),
      foreign key (contact_id, user_id) references contacts (id, user_id) on delete cascade
    )`.execute(db);
  await sql`
    create table checkin_codes (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      day date not null,
      code text not null check (code ~ '^[A-HJ-NP-Z2-9]{4,8}$'),
      state text not null check (state in ('reserved', 'active', 'released')),
      station_id integer,
      created_at timestamptz not null default now(),
      released_at timestamptz,
      unique (id, user_id),
      foreign key (station_id, user_id) references checkin_stations (id, user_id) on delete set null (station_id)
    )`.execute(db);
  // The rule of the codes: one holder at a time among the day's codes not yet released.
  await sql`create unique index checkin_codes_unreleased_key on checkin_codes (user_id, day, code)
    where state <> 'released'`.execute(db);
  await sql`create index checkin_codes_station_idx on checkin_codes (station_id, day) where state = 'reserved'`.execute(
    db,
  );
  await sql`
    create table checkins (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      client_id text,
      day date not null,
      family_contact_id integer not null,
      child_id integer not null,
      room_id integer not null,
      service_id integer,
      code_id integer not null,
      checked_in_at timestamptz not null default now(),
      checked_in_by_user integer references users(id) on delete set null,
      checked_in_by_station integer,
      checked_out_at timestamptz,
      checked_out_by_user integer references users(id) on delete set null,
      checked_out_by_station integer,
      age_override boolean not null default false,
      capacity_override boolean not null default false,
      checkout_override boolean not null default false,
      checkout_override_reason text,
      unique (user_id, client_id),
      foreign key (family_contact_id, user_id) references contacts (id, user_id) on delete cascade,
      foreign key (child_id, user_id) references contact_children (id, user_id) on delete cascade,
      -- A room with check-ins is kept (its attendance is history): deleting it is refused.
      foreign key (room_id, user_id) references checkin_rooms (id, user_id) on delete no action,
      foreign key (service_id, user_id) references checkin_services (id, user_id) on delete set null (service_id),
      foreign key (code_id, user_id) references checkin_codes (id, user_id) on delete cascade,
      foreign key (checked_in_by_station, user_id) references checkin_stations (id, user_id)
        on delete set null (checked_in_by_station),
      foreign key (checked_out_by_station, user_id) references checkin_stations (id, user_id)
        on delete set null (checked_out_by_station)
    )`.execute(db);
  // A child is in one room at a time: a second check-in before pickup is refused.
  await sql`create unique index checkins_child_present_key on checkins (child_id, day) where checked_out_at is null`.execute(
    db,
  );
  await sql`create index checkins_day_idx on checkins (user_id, day, room_id)`.execute(db);
  await sql`create index checkins_code_idx on checkins (code_id)`.execute(db);
  await sql`create index checkins_family_idx on checkins (family_contact_id)`.execute(db);

  // A station's check-ins and pickups are its own in the event log (actor 'station', id the station's).
  await sql`alter table events drop constraint events_actor_kind_check`.execute(db);
  await sql`alter table events add constraint events_actor_kind_check
    check (actor_kind in ('user', 'api_key', 'public', 'system', 'portal', 'station'))`.execute(db);

  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  for (const table of ['checkin_stations', 'checkin_family_cards', 'checkin_codes', 'checkins']) {
    await sql.raw(`alter table ${table} enable row level security`).execute(db);
    await sql.raw(`create policy church_rows on ${table} using (${rule}) with check (${rule})`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update events set actor_kind = 'public', actor_id = null where actor_kind = 'station'`.execute(db);
  await sql`alter table events drop constraint events_actor_kind_check`.execute(db);
  await sql`alter table events add constraint events_actor_kind_check
    check (actor_kind in ('user', 'api_key', 'public', 'system', 'portal'))`.execute(db);
  await sql`drop table checkins`.execute(db);
  await sql`drop table checkin_codes`.execute(db);
  await sql`drop table checkin_family_cards`.execute(db);
  await sql`drop table checkin_stations`.execute(db);
}
