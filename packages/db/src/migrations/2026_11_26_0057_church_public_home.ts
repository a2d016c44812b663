import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// A church's public home (issue 28 §1–2): its profile at /c/{handle}. A handle is unique across
// the platform, and one given up keeps redirecting to its church for a year (so printed links keep
// working); until then no other church may take it. Lists may be public (people join them
// themselves from the home page), and a sign-up may come from the home page rather than a landing
// page (no page).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table church_profiles (
      user_id integer primary key references users(id) on delete cascade,
      handle text not null,
      description text not null default '',
      logo_url text,
      logo_thumbnail_url text,
      address text not null default '',
      service_times text not null default '',
      website text,
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index church_profiles_handle_key on church_profiles (handle)`.execute(db);
  await sql`
    create table church_handle_redirects (
      handle text primary key,
      user_id integer not null references users(id) on delete cascade,
      expires_at timestamptz not null
    )`.execute(db);
  await sql`create index church_handle_redirects_church_idx on church_handle_redirects (user_id)`.execute(db);
  await sql`
    alter table contact_lists
      add column is_public boolean not null default false,
      add column public_description text not null default ''`.execute(db);
  await sql`alter table landing_page_signups alter column page_id drop not null`.execute(db);

  // Row-level security like every church table (0048).
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  for (const table of ['church_profiles', 'church_handle_redirects']) {
    await sql.raw(`alter table ${table} enable row level security`).execute(db);
    await sql.raw(`create policy church_rows on ${table} using (${rule}) with check (${rule})`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from landing_page_signups where page_id is null`.execute(db);
  await sql`alter table landing_page_signups alter column page_id set not null`.execute(db);
  await sql`alter table contact_lists drop column public_description, drop column is_public`.execute(db);
  await sql`drop table church_handle_redirects`.execute(db);
  await sql`drop table church_profiles`.execute(db);
}
