import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Bringing recurring givers back after a move: card details cannot move between processors, so a
// third kind of import ('recurring', the old system's recurring-gift export) writes one
// `gift_renewals` row per recurring gift there: the donor (their contact when one was found), the
// funds and amounts (`lines`: fund id, name and cents), the frequency, the last charge in the old
// system and the first date after it, and a personal unguessable `token` for the giving page's
// link (`/c/{handle}/give?renew=`). When the donor sets the gift up again through that link, the
// new schedule is linked (`schedule_id`) and, once its card is saved, `renewed_at` is set.
// (`source`, `external_id`): the same export imported again adds no second row.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table imports drop constraint imports_kind_check`.execute(db);
  await sql`alter table imports add constraint imports_kind_check check (kind in ('people', 'gifts', 'recurring'))`.execute(
    db,
  );
  await sql`
    create table gift_renewals (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      import_id integer references imports(id) on delete set null,
      contact_id integer references contacts(id) on delete set null,
      source text not null,
      external_id text not null,
      donor_name text not null,
      donor_email text,
      frequency text not null
        check (frequency in ('weekly', 'every_two_weeks', 'monthly', 'first_and_fifteenth', 'yearly')),
      lines jsonb not null,
      amount_cents integer not null check (amount_cents > 0),
      monthly_cents integer not null,
      last_charge_date date,
      start_date date not null,
      token text not null unique,
      schedule_id integer references gift_schedules(id) on delete set null,
      renewed_at timestamptz,
      created_at timestamptz not null default now(),
      unique (user_id, source, external_id)
    )`.execute(db);
  await sql`create index gift_renewals_contact_idx on gift_renewals (contact_id) where contact_id is not null`.execute(
    db,
  );
  await sql`create index gift_renewals_schedule_idx on gift_renewals (schedule_id) where schedule_id is not null`.execute(
    db,
  );

  // Row-level security like every church table (0048).
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  await sql.raw(`alter table gift_renewals enable row level security`).execute(db);
  await sql.raw(`create policy church_rows on gift_renewals using (${rule}) with check (${rule})`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table gift_renewals`.execute(db);
  await sql`alter table imports drop constraint imports_kind_check`.execute(db);
  await sql`alter table imports add constraint imports_kind_check check (kind in ('people', 'gifts'))`.execute(db);
}
