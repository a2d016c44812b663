import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// A church's calendar: events people register for (docs/calendar-events.md). The `calendar_`
// prefix keeps them apart from `events`, the log of what happened.
//
// - `calendar_events`: what, where, for whom, who may see it, when registration is open, whether
//   staff approve each registration, the refund policy; its slug unique per church.
// - `calendar_event_times`: each time of the event (a series has several), with its own capacity
//   and `seats_taken`, the counter every registration moves with one conditional UPDATE; the check
//   constraint is the last guard (a capacity below the seats taken is refused by the database too).
// - `calendar_ticket_types`: free or paid tickets, a capacity per time, at most so many per
//   registration; `calendar_ticket_counts` is the counter of each (time, ticket type).
// - `calendar_discount_codes`: an amount or a percentage off, limited uses (counted the same way),
//   an expiry.
// - `calendar_questions`: per registration or per attendee, of seven kinds, required or not.
// - `calendar_registrations`: one registrant's registration (held while paying, confirmed, waiting
//   for approval, waitlisted, offered a seat from the waitlist, cancelled, expired, declined), its
//   payment in the ledger (`gift_id`), whether its seats are counted now (`seats_held`), and the
//   refund it is owed; `calendar_attendees` the people it covers, each with a ticket token for the
//   door; `calendar_answers` the answers.
// - `gifts.kind`: the ledger's entries are gifts (deductible) or registration fees (goods received).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table gifts add column kind text not null default 'gift' check (kind in ('gift', 'registration'))`.execute(
    db,
  );
  await sql`
    create table calendar_events (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      slug text not null,
      title text not null,
      description_html text not null default '',
      image_url text,
      location_name text,
      address text,
      audience_tags text[] not null default '{}',
      visibility text not null default 'public' check (visibility in ('public', 'members', 'link')),
      status text not null default 'draft' check (status in ('draft', 'published', 'cancelled')),
      registration_opens_at timestamptz,
      registration_closes_at timestamptz,
      requires_approval boolean not null default false,
      waitlist boolean not null default true,
      refund_policy text not null default 'full' check (refund_policy in ('full', 'none')),
      published_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint calendar_events_registration_window check (
        registration_opens_at is null or registration_closes_at is null
        or registration_closes_at > registration_opens_at),
      unique (user_id, slug)
    )`.execute(db);
  await sql`
    create table calendar_event_times (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      event_id integer not null references calendar_events(id) on delete cascade,
      starts_at timestamptz not null,
      ends_at timestamptz,
      capacity integer check (capacity > 0),
      seats_taken integer not null default 0,
      constraint calendar_event_times_seats check (seats_taken >= 0 and (capacity is null or seats_taken <= capacity)),
      check (ends_at is null or ends_at > starts_at)
    )`.execute(db);
  await sql`create index calendar_event_times_event_idx on calendar_event_times (event_id, starts_at)`.execute(db);
  await sql`
    create table calendar_ticket_types (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      event_id integer not null references calendar_events(id) on delete cascade,
      name text not null,
      price_cents integer not null default 0 check (price_cents >= 0),
      capacity integer check (capacity > 0),
      max_per_registration integer check (max_per_registration > 0),
      position integer not null default 0
    )`.execute(db);
  await sql`create index calendar_ticket_types_event_idx on calendar_ticket_types (event_id, position)`.execute(db);
  await sql`
    create table calendar_ticket_counts (
      time_id integer not null references calendar_event_times(id) on delete cascade,
      ticket_type_id integer not null references calendar_ticket_types(id) on delete cascade,
      user_id integer not null references users(id) on delete cascade,
      capacity integer check (capacity > 0),
      taken integer not null default 0,
      constraint calendar_ticket_counts_seats check (taken >= 0 and (capacity is null or taken <= capacity)),
      primary key (time_id, ticket_type_id)
    )`.execute(db);
  await sql`create index calendar_ticket_counts_type_idx on calendar_ticket_counts (ticket_type_id)`.execute(db);
  await sql`
    create table calendar_discount_codes (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      event_id integer not null references calendar_events(id) on delete cascade,
      code text not null,
      percent_off integer check (percent_off between 1 and 100),
      amount_off_cents integer check (amount_off_cents > 0),
      max_uses integer check (max_uses > 0),
      uses integer not null default 0,
      expires_at timestamptz,
      constraint calendar_discount_codes_uses check (uses >= 0 and (max_uses is null or uses <= max_uses)),
      check ((percent_off is null) <> (amount_off_cents is null))
    )`.execute(db);
  await sql`create unique index calendar_discount_codes_code_idx on calendar_discount_codes (event_id, lower(code))`.execute(
    db,
  );
  await sql`
    create table calendar_questions (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      event_id integer not null references calendar_events(id) on delete cascade,
      scope text not null check (scope in ('registration', 'attendee')),
      kind text not null check (kind in ('short_text', 'long_text', 'choice', 'multiple_choice', 'yes_no', 'date', 'number')),
      label text not null,
      choices text[] not null default '{}',
      required boolean not null default false,
      position integer not null default 0
    )`.execute(db);
  await sql`create index calendar_questions_event_idx on calendar_questions (event_id, position)`.execute(db);
  await sql`
    create table calendar_registrations (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      event_id integer not null references calendar_events(id) on delete cascade,
      time_id integer not null references calendar_event_times(id) on delete cascade,
      status text not null check (status in ('held', 'pending_approval', 'confirmed', 'waitlisted', 'offered',
        'cancelled', 'expired', 'declined')),
      contact_id integer references contacts(id) on delete set null,
      name text not null,
      email text not null,
      phone text,
      seats integer not null check (seats > 0),
      seats_held boolean not null default false,
      subtotal_cents integer not null default 0 check (subtotal_cents >= 0),
      discount_code_id integer references calendar_discount_codes(id) on delete set null,
      discount_cents integer not null default 0 check (discount_cents >= 0),
      total_cents integer not null default 0 check (total_cents >= 0),
      gift_id integer references gifts(id) on delete set null,
      hold_expires_at timestamptz,
      offer_token text unique,
      offer_expires_at timestamptz,
      waitlisted_at timestamptz,
      confirmed_at timestamptz,
      cancelled_at timestamptz,
      refund_due_cents integer not null default 0 check (refund_due_cents >= 0),
      refunded_cents integer not null default 0 check (refunded_cents >= 0),
      refund_attempts integer not null default 0,
      refund_retry_at timestamptz,
      refund_error text,
      idempotency_key text not null unique,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (status <> 'held' or hold_expires_at is not null),
      check (status <> 'offered' or (offer_token is not null and offer_expires_at is not null))
    )`.execute(db);
  await sql`create index calendar_registrations_event_idx on calendar_registrations (event_id, id)`.execute(db);
  await sql`create index calendar_registrations_gift_idx on calendar_registrations (gift_id) where gift_id is not null`.execute(
    db,
  );
  await sql`
    create index calendar_registrations_waitlist_idx on calendar_registrations (time_id, waitlisted_at, id)
    where status = 'waitlisted'`.execute(db);
  await sql`
    create index calendar_registrations_due_idx on calendar_registrations (coalesce(hold_expires_at, offer_expires_at))
    where status in ('held', 'offered')`.execute(db);
  await sql`
    create index calendar_registrations_refund_idx on calendar_registrations (refund_retry_at)
    where refund_due_cents > 0`.execute(db);
  await sql`
    create table calendar_attendees (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      registration_id integer not null references calendar_registrations(id) on delete cascade,
      ticket_type_id integer not null references calendar_ticket_types(id) on delete restrict,
      name text not null,
      email text,
      price_cents integer not null default 0,
      ticket_token text not null unique,
      checked_in_at timestamptz,
      checked_in_by integer references users(id) on delete set null
    )`.execute(db);
  await sql`create index calendar_attendees_registration_idx on calendar_attendees (registration_id, id)`.execute(db);
  await sql`
    create table calendar_answers (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      registration_id integer not null references calendar_registrations(id) on delete cascade,
      attendee_id integer references calendar_attendees(id) on delete cascade,
      question_id integer not null references calendar_questions(id) on delete cascade,
      value jsonb not null
    )`.execute(db);
  await sql`create index calendar_answers_registration_idx on calendar_answers (registration_id)`.execute(db);
  await sql`create index calendar_answers_question_idx on calendar_answers (question_id)`.execute(db);

  // Row-level security like every church table (0048).
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  for (const table of TABLES) {
    await sql.raw(`alter table ${table} enable row level security`).execute(db);
    await sql.raw(`create policy church_rows on ${table} using (${rule}) with check (${rule})`).execute(db);
  }
}

const TABLES = [
  'calendar_events',
  'calendar_event_times',
  'calendar_ticket_types',
  'calendar_ticket_counts',
  'calendar_discount_codes',
  'calendar_questions',
  'calendar_registrations',
  'calendar_attendees',
  'calendar_answers',
];

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [...TABLES].reverse()) await sql.raw(`drop table ${table}`).execute(db);
  await sql`alter table gifts drop column kind`.execute(db);
}
