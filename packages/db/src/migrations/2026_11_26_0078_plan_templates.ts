import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Issue 31 §9: a plan saved as a template (its times, items with their lengths and songs, and the
// positions it needs), and new plans made from one for a date or every week for N weeks. A plan
// keeps the positions it needs, which Auto-schedule offers first.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table service_plan_templates (
      id integer generated always as identity primary key,
      user_id integer not null references users(id) on delete cascade,
      name text not null check (char_length(name) between 1 and 200),
      title text not null,
      start_time text,
      end_time text,
      location text,
      service_times text[] not null default '{}',
      items jsonb not null default '[]' check (jsonb_typeof(items) = 'array'),
      positions_needed integer[] not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (user_id, name)
    )`.execute(db);
  await sql`alter table service_plans add column positions_needed integer[] not null default '{}'`.execute(db);
  // Row-level security like every church table (0048).
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  await sql.raw(`alter table service_plan_templates enable row level security`).execute(db);
  await sql.raw(`create policy church_rows on service_plan_templates using (${rule}) with check (${rule})`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table service_plans drop column positions_needed`.execute(db);
  await sql`drop table service_plan_templates`.execute(db);
}
