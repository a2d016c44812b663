import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// The members' portal (issue 28 §3–6): sign-in by a one-time link or SMS code (stored hashed,
// 15 minutes, single use), portal sessions (a separate cookie, 30 days, the church and the contact
// ids it may reach), and the details members propose and staff approve.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table portal_sign_in_tokens (
      id bigserial primary key,
      user_id integer not null references users(id) on delete cascade,
      token_hash text not null,
      kind text not null check (kind in ('link', 'code')),
      address text not null,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index portal_sign_in_tokens_hash_key on portal_sign_in_tokens (token_hash)`.execute(db);
  await sql`create index portal_sign_in_tokens_church_idx on portal_sign_in_tokens (user_id, address)`.execute(db);
  await sql`
    create table portal_sessions (
      id_hash text primary key,
      user_id integer not null references users(id) on delete cascade,
      contact_ids integer[] not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    )`.execute(db);
  await sql`create index portal_sessions_church_idx on portal_sessions (user_id)`.execute(db);
  await sql`
    create table profile_update_proposals (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      contact_id integer not null references contacts(id) on delete cascade,
      changes jsonb not null,
      status text not null default 'pending'
        check (status in ('unconfirmed', 'pending', 'approved', 'rejected')),
      confirm_token_hash text,
      confirm_expires_at timestamptz,
      created_at timestamptz not null default now(),
      decided_at timestamptz,
      decided_by integer references users(id) on delete set null
    )`.execute(db);
  await sql`create index profile_update_proposals_church_idx on profile_update_proposals (user_id, status)`.execute(db);
  await sql`create index profile_update_proposals_contact_idx on profile_update_proposals (contact_id)`.execute(db);

  // Row-level security like every church table (0048).
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  for (const table of ['portal_sign_in_tokens', 'portal_sessions', 'profile_update_proposals']) {
    await sql.raw(`alter table ${table} enable row level security`).execute(db);
    await sql.raw(`create policy church_rows on ${table} using (${rule}) with check (${rule})`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table profile_update_proposals`.execute(db);
  await sql`drop table portal_sessions`.execute(db);
  await sql`drop table portal_sign_in_tokens`.execute(db);
}
