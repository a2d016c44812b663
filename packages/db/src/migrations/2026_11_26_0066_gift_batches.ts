import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Batches of cash and checks (issue 30 §7): a batch (date, description, the counted total), its
// lines are gifts (method cash / check / other, a check number) pending until the batch is
// committed; a committed batch is locked (a correction is a new line with its reason).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table gift_batches (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      batch_date date not null,
      description text,
      expected_total_cents integer not null check (expected_total_cents >= 0),
      status text not null default 'open' check (status in ('open', 'committed')),
      committed_at timestamptz,
      committed_by integer references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index gift_batches_church_idx on gift_batches (user_id, batch_date desc)`.execute(db);
  await sql`
    alter table gifts
      add column batch_id integer references gift_batches(id) on delete cascade,
      add column check_number text,
      add column correction_reason text`.execute(db);
  await sql`create index gifts_batch_idx on gifts (batch_id) where batch_id is not null`.execute(db);
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  await sql.raw(`alter table gift_batches enable row level security`).execute(db);
  await sql.raw(`create policy church_rows on gift_batches using (${rule}) with check (${rule})`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table gifts drop column batch_id, drop column check_number, drop column correction_reason`.execute(
    db,
  );
  await sql`drop table gift_batches`.execute(db);
}
