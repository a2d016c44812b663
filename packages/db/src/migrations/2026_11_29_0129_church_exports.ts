import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// A church's "Export everything": one ZIP of every table it owns, its files and a README, built by
// a job and fetched through a link that works for 24 hours. The link's secret is kept only as its
// SHA-256 hash; the ZIP lives in the app's file storage under `storage_key`, which nobody is shown.
// `progress` is 0 to 100 while it runs. One running (or queued) export per church at a time.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table exports (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      requested_by integer references users(id) on delete set null,
      status text not null default 'queued' check (status in ('queued', 'running', 'ready', 'failed', 'expired')),
      progress integer not null default 0 check (progress between 0 and 100),
      file_size bigint,
      storage_key text,
      token_hash text,
      error text,
      created_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz,
      expires_at timestamptz,
      check (status <> 'ready' or (storage_key is not null and token_hash is not null and expires_at is not null))
    )`.execute(db);
  await sql`create index exports_church_idx on exports (user_id, id desc)`.execute(db);
  await sql`
    create unique index exports_one_running_idx on exports (user_id)
    where status in ('queued', 'running')`.execute(db);
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  await sql.raw(`alter table exports enable row level security`).execute(db);
  await sql.raw(`create policy church_rows on exports using (${rule}) with check (${rule})`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('exports').execute();
}
