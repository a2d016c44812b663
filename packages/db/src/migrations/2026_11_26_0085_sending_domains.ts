import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// The church's own sending domain (issue 32 §7). A church adds a domain; Lampstand makes a DKIM key
// pair for it (the private key signs its mail, the public key is the DKIM TXT record it publishes).
// `verified_at` is set when every required record was found as shown; until then the church's mail
// goes From the platform's address. `check_results` keeps what the last Verify found, per record.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table sending_domains (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      domain text not null check (domain = lower(domain) and length(domain) <= 253),
      dkim_selector text not null,
      dkim_private_key text not null,
      dkim_public_key text not null,
      verified_at timestamptz,
      checked_at timestamptz,
      check_results jsonb,
      created_at timestamptz not null default now(),
      unique (user_id, domain)
    )`.execute(db);
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  await sql.raw(`alter table sending_domains enable row level security`).execute(db);
  await sql.raw(`create policy church_rows on sending_domains using (${rule}) with check (${rule})`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table sending_domains`.execute(db);
}
