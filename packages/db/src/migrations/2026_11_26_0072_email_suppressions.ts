import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Bounces and complaints (issue 32 §5, §6). Every bounce or complaint received is a row of
// `email_bounces` (hard, soft or complaint; the delivery it answers; the status and diagnostic),
// from which three soft bounces in 30 days are counted. A church's suppression list holds the
// addresses no send of it reaches (lower case), with the reason and the delivery that caused it;
// removing one keeps the row with who removed it and when (the log), and the address is sent to
// again.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table email_bounces (
      id bigint generated always as identity primary key,
      user_id integer not null references users(id) on delete cascade,
      email text not null,
      delivery_id integer references deliveries(id) on delete set null,
      kind text not null check (kind in ('hard', 'soft', 'complaint')),
      status text,
      detail text not null default '',
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index email_bounces_address_idx on email_bounces (user_id, email, created_at)`.execute(db);
  await sql`
    create table email_suppressions (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      email text not null check (email = lower(email)),
      reason text not null check (reason in ('hard_bounce', 'soft_bounces', 'complaint')),
      detail text not null default '',
      delivery_id integer references deliveries(id) on delete set null,
      created_at timestamptz not null default now(),
      removed_at timestamptz,
      removed_by integer references users(id) on delete set null
    )`.execute(db);
  // One active suppression per address and church.
  await sql`create unique index email_suppressions_active_key on email_suppressions (user_id, email) where removed_at is null`.execute(
    db,
  );
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  for (const table of ['email_bounces', 'email_suppressions']) {
    await sql.raw(`alter table ${table} enable row level security`).execute(db);
    await sql.raw(`create policy church_rows on ${table} using (${rule}) with check (${rule})`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table email_suppressions`.execute(db);
  await sql`drop table email_bounces`.execute(db);
}
