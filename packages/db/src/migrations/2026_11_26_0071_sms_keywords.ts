import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// A church's SMS keywords (issue 32 §3): one or two words (stored upper case, letters and digits,
// one space between two words), matched as the first word(s) of an incoming text. What a match
// does: reply with a message (a 'conversation-reply' delivery of the engine), add the texter to a
// list. Each match is an `sms.received` event naming the keyword, which journeys can start from.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table sms_keywords (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      keyword text not null check (keyword ~ '^[A-Z0-9]+( [A-Z0-9]+)?$'),
      reply_text text,
      list_id integer references contact_lists(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (user_id, keyword)
    )`.execute(db);
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  await sql.raw(`alter table sms_keywords enable row level security`).execute(db);
  await sql.raw(`create policy church_rows on sms_keywords using (${rule}) with check (${rule})`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table sms_keywords`.execute(db);
}
