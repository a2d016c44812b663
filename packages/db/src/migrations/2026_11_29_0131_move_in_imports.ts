import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Moving in from another system (Planning Center, Breeze, a spreadsheet). An upload is kept as an
// `imports` row: the file (as text, at most 50 MB), the source recognised from its header row, the
// dry run's preview, and once staff confirm, the background commit's progress (`processed_rows`:
// how many data rows are written, so a restarted job resumes after them) and its report.
// `import_presets`: a church's saved column mapping for a generic CSV.
// `contact_external_ids`: the id a person had in the system they came from, so the same file run
// again changes nothing and a second file (the donations) finds the person by it.
// `gifts.import_id`: the ledger's gifts an import wrote (no receipts, journeys or webhooks for
// them); `gifts.external_id`: the source's id of the gift (its idempotency key, built from the
// church, the source and that id, keeps a second run of the same donations file from adding it).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table imports (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      file_name text not null,
      source text not null,
      kind text not null check (kind in ('people', 'gifts')),
      csv text not null,
      preset_id integer,
      status text not null default 'previewed'
        check (status in ('previewed', 'queued', 'running', 'completed', 'failed')),
      preview jsonb not null,
      policy jsonb not null default '{}'::jsonb,
      total_rows integer not null default 0,
      processed_rows integer not null default 0,
      report jsonb,
      error text,
      progress_at timestamptz,
      created_by integer references users(id) on delete set null,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    )`.execute(db);
  await sql`create index imports_church_idx on imports (user_id, created_at desc)`.execute(db);
  // One import at a time per church: a second commit waits for the first to finish.
  await sql`
    create unique index imports_one_running_idx on imports (user_id) where status in ('queued', 'running')`.execute(db);
  await sql`
    create table import_presets (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      name text not null,
      kind text not null check (kind in ('people', 'gifts')),
      mapping jsonb not null,
      created_at timestamptz not null default now(),
      unique (user_id, name)
    )`.execute(db);
  await sql`
    alter table imports add constraint imports_preset_fk
      foreign key (preset_id) references import_presets(id) on delete set null`.execute(db);
  await sql`
    create table contact_external_ids (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      contact_id integer not null references contacts(id) on delete cascade,
      source text not null,
      external_id text not null,
      created_at timestamptz not null default now(),
      unique (user_id, source, external_id)
    )`.execute(db);
  await sql`create index contact_external_ids_contact_idx on contact_external_ids (contact_id)`.execute(db);
  await sql`alter table gifts add column import_id integer references imports(id) on delete set null`.execute(db);
  await sql`alter table gifts add column external_id text`.execute(db);
  await sql`create index gifts_import_idx on gifts (import_id) where import_id is not null`.execute(db);

  // Row-level security like every church table (0048).
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  for (const table of ['imports', 'import_presets', 'contact_external_ids']) {
    await sql.raw(`alter table ${table} enable row level security`).execute(db);
    await sql.raw(`create policy church_rows on ${table} using (${rule}) with check (${rule})`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table gifts drop column external_id`.execute(db);
  await sql`alter table gifts drop column import_id`.execute(db);
  await sql`drop table contact_external_ids`.execute(db);
  await sql`drop table imports`.execute(db);
  await sql`drop table import_presets`.execute(db);
}
