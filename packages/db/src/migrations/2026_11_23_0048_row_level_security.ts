import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Row-level security (issue 12 §15, docs/security.md): every table with a church column
// (`user_id`) shows and accepts only the rows of the church in `app.tenant_id`, unless
// `app.rls_bypass` is 'on'. Two tables without the column follow their parent's row. The owner is
// not subject to the policies (no FORCE): migrations and pg_dump run as the owner, the application
// as `lampstand_app` (app-role.ts). The settings are read once per statement (sub-selects).
const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
const BYPASS = `(select current_setting('app.rls_bypass', true) = 'on')`;

/** Child tables without `user_id`: visible when their parent row is. */
const CHILDREN: Record<string, string> = {
  delivery_events: 'exists (select 1 from deliveries p where p.id = delivery_events.delivery_id)',
  team_member_positions: 'exists (select 1 from team_members p where p.id = team_member_positions.team_member_id)',
};

export async function up(db: Kysely<any>): Promise<void> {
  // Aliased `t`: the migrator's handle may map snake_case result names to camelCase.
  const { rows } = await sql<{ t: string }>`
    select c.table_name as t from information_schema.columns c
    join information_schema.tables tb using (table_schema, table_name)
    where c.table_schema = 'public' and c.column_name = 'user_id' and tb.table_type = 'BASE TABLE'
    order by c.table_name`.execute(db);
  for (const { t: table } of rows) {
    const rule = `${BYPASS} or user_id = (select ${TENANT})`;
    await sql.raw(`alter table ${table} enable row level security`).execute(db);
    await sql.raw(`create policy church_rows on ${table} using (${rule}) with check (${rule})`).execute(db);
  }
  for (const [table, parent] of Object.entries(CHILDREN)) {
    const rule = `${BYPASS} or ${parent}`;
    await sql.raw(`alter table ${table} enable row level security`).execute(db);
    await sql.raw(`create policy church_rows on ${table} using (${rule}) with check (${rule})`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ t: string }>`
    select tablename as t from pg_policies where schemaname = 'public' and policyname = 'church_rows'`.execute(db);
  for (const { t: table } of rows) {
    await sql.raw(`drop policy church_rows on ${table}`).execute(db);
    await sql.raw(`alter table ${table} disable row level security`).execute(db);
  }
}
