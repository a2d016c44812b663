import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Giving that recurs (issue 30): a church's funds ('General' for every church, made here for the
// churches that exist and at registration for new ones), its gifts (one gift split across funds in
// lines, whole cents), and recurring gift schedules charged by our own scheduler (a saved card,
// charged off-session once per (schedule, date): the unique key on gifts).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table funds (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      name text not null,
      description text,
      is_public boolean not null default true,
      status text not null default 'active' check (status in ('active', 'archived')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index funds_church_name_key on funds (user_id, lower(name))`.execute(db);
  await sql`insert into funds (user_id, name, description) select id, 'General', null from users`.execute(db);

  await sql`
    create table gift_schedules (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      contact_id integer references contacts(id) on delete set null,
      donor_name text not null,
      donor_email text not null,
      donor_address jsonb,
      note text,
      frequency text not null
        check (frequency in ('weekly', 'every_two_weeks', 'monthly', 'first_and_fifteenth', 'yearly')),
      start_date date not null,
      next_date date not null,
      status text not null default 'pending'
        check (status in ('pending', 'active', 'paused', 'cancelled', 'failing')),
      paused_until date,
      amount_cents integer not null check (amount_cents >= 50),
      cover_fees boolean not null default false,
      fee_cents integer not null default 0 check (fee_cents >= 0),
      currency text not null default 'usd',
      stripe_customer_id text,
      stripe_payment_method_id text,
      stripe_setup_intent_id text unique,
      stripe_client_secret text,
      stripe_account_id text,
      failed_attempts integer not null default 0,
      retry_at timestamptz,
      last_failure text,
      manage_token text not null unique,
      idempotency_key text not null unique,
      is_demo boolean not null default false,
      source_kind text check (source_kind in ('qr', 'link', 'email', 'sms', 'page')),
      source_id integer,
      cancelled_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index gift_schedules_church_idx on gift_schedules (user_id, status, next_date)`.execute(db);
  await sql`create index gift_schedules_due_idx on gift_schedules (next_date) where status in ('active', 'failing')`.execute(
    db,
  );
  await sql`
    create table gift_schedule_lines (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      schedule_id integer not null references gift_schedules(id) on delete cascade,
      fund_id integer not null references funds(id),
      amount_cents integer not null check (amount_cents >= 50)
    )`.execute(db);
  await sql`create index gift_schedule_lines_schedule_idx on gift_schedule_lines (schedule_id)`.execute(db);
  await sql`create index gift_schedule_lines_fund_idx on gift_schedule_lines (fund_id)`.execute(db);

  await sql`
    create table gifts (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      contact_id integer references contacts(id) on delete set null,
      schedule_id integer references gift_schedules(id) on delete set null,
      charge_date date,
      amount_cents integer not null check (amount_cents > 0),
      fee_cents integer not null default 0 check (fee_cents >= 0),
      currency text not null default 'usd',
      donor_name text,
      donor_email text,
      donor_address jsonb,
      note text,
      frequency text not null default 'one_time',
      method text not null default 'card' check (method in ('card', 'cash', 'check', 'other')),
      status text not null default 'pending'
        check (status in ('pending', 'completed', 'failed', 'refunded', 'disputed')),
      failure_reason text,
      dispute_status text,
      stripe_payment_id text unique,
      stripe_client_secret text,
      stripe_customer_id text,
      stripe_account_id text,
      platform_fee_cents integer not null default 0,
      idempotency_key text not null unique,
      is_demo boolean not null default false,
      source_kind text check (source_kind in ('qr', 'link', 'email', 'sms', 'page')),
      source_id integer,
      receipt_token text not null unique,
      receipt_sent_at timestamptz,
      completed_at timestamptz,
      refunded_at timestamptz,
      disputed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (schedule_id, charge_date)
    )`.execute(db);
  await sql`create index gifts_church_idx on gifts (user_id, created_at desc)`.execute(db);
  await sql`create index gifts_contact_idx on gifts (contact_id) where contact_id is not null`.execute(db);
  await sql`
    create table gift_lines (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      gift_id integer not null references gifts(id) on delete cascade,
      fund_id integer not null references funds(id),
      amount_cents integer not null check (amount_cents > 0)
    )`.execute(db);
  await sql`create index gift_lines_gift_idx on gift_lines (gift_id)`.execute(db);
  await sql`create index gift_lines_fund_idx on gift_lines (fund_id)`.execute(db);

  // Row-level security like every church table (0048).
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  for (const table of ['funds', 'gift_schedules', 'gift_schedule_lines', 'gifts', 'gift_lines']) {
    await sql.raw(`alter table ${table} enable row level security`).execute(db);
    await sql.raw(`create policy church_rows on ${table} using (${rule}) with check (${rule})`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table gift_lines`.execute(db);
  await sql`drop table gifts`.execute(db);
  await sql`drop table gift_schedule_lines`.execute(db);
  await sql`drop table gift_schedules`.execute(db);
  await sql`drop table funds`.execute(db);
}
