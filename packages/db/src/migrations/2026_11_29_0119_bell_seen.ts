import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// The header's bell: what waits for a person (their tasks, unread replies, profile updates to
// approve, webhook deliveries that gave up) is read from those tables; the bell keeps only how far
// each person has read, one row per church and person: `seen_up_to`, moved forward by 'Mark all as
// read'. An item is unread when it started waiting after that moment (a new reply to an old
// conversation is unread again), so nothing is written per item and nothing is left to clean up
// when an item stops waiting. The reader is the signed-in account (an administrator acting as a
// church keeps their own mark, apart from the church's).
//
// And two partial indexes for the sidebar's counts, polled every minute by every open tab: a
// church's conversations with unread texts, and its webhook deliveries that gave up.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table bell_seen (
      user_id integer not null references users(id) on delete cascade,
      reader_id integer not null references users(id) on delete cascade,
      seen_up_to timestamptz not null,
      primary key (user_id, reader_id)
    )`.execute(db);
  // Row-level security like every church table (0048).
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  await sql.raw(`alter table bell_seen enable row level security`).execute(db);
  await sql.raw(`create policy church_rows on bell_seen using (${rule}) with check (${rule})`).execute(db);
  await sql`create index conversations_unread_idx on conversations (user_id) where unread_count > 0`.execute(db);
  await sql`
    create index webhook_deliveries_failed_idx on webhook_deliveries (user_id, last_attempt_at desc)
    where status = 'failed'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index webhook_deliveries_failed_idx`.execute(db);
  await sql`drop index conversations_unread_idx`.execute(db);
  await sql`drop table bell_seen`.execute(db);
}
