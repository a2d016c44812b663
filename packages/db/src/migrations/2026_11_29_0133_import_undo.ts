import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Undoing a move-in import (for 7 days after it finished). `import_changes` is the import's undo
// log, written in each batch's own transaction: a row it created (`created`: a contact, an
// external id, a consent history entry, a family link, a child, a fund) or a row it changed
// (`changed`: the fields it wrote, `before` as they were and `after` as the import left them, so
// that undo restores a field only while it still holds the imported value). The gifts an import
// wrote are found by `gifts.import_id` (0131), their lines by their gift. An undone import is
// `undone`, with when and by whom.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table imports
      drop constraint imports_status_check,
      add constraint imports_status_check
        check (status in ('previewed', 'queued', 'running', 'completed', 'failed', 'undone')),
      add column undone_at timestamptz,
      add column undone_by integer references users(id) on delete set null`.execute(db);
  await sql`
    create table import_changes (
      id bigserial primary key,
      user_id integer not null references users(id) on delete cascade,
      import_id integer not null references imports(id) on delete cascade,
      table_name text not null check (table_name in (
        'contacts', 'contact_external_ids', 'contact_consent_events', 'contact_family_links',
        'contact_children', 'funds')),
      row_id integer not null,
      action text not null check (action in ('created', 'changed')),
      before jsonb,
      after jsonb,
      check ((action = 'changed') = (before is not null and after is not null))
    )`.execute(db);
  await sql`create index import_changes_import_idx on import_changes (import_id, table_name, id)`.execute(db);

  // Row-level security like every church table (0048).
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  await sql.raw(`alter table import_changes enable row level security`).execute(db);
  await sql.raw(`create policy church_rows on import_changes using (${rule}) with check (${rule})`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table import_changes`.execute(db);
  await sql`update imports set status = 'completed' where status = 'undone'`.execute(db);
  await sql`
    alter table imports
      drop column undone_by,
      drop column undone_at,
      drop constraint imports_status_check,
      add constraint imports_status_check
        check (status in ('previewed', 'queued', 'running', 'completed', 'failed'))`.execute(db);
}
