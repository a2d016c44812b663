import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Email warm-up (issue 32 §8, EMAIL_WARMUP): in a new church's first seven days (24 hours each,
// counted from its sign-up) the delivery engine claims at most 50, 100, 200, … emails a day. This
// counts the emails claimed for sending on each of those days, one row per church and day, taken
// under the row's lock in the same transaction as the claim, so two workers cannot both pass it.
//
// And an index on a church's own texting number: every incoming text (POST /api/twilio/inbound)
// looks up the church whose number it was sent to (issue 32's `pnpm bench:inbound`).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create index church_settings_sms_from_idx on church_settings (sms_from_number)
    where sms_from_number is not null and sms_from_number <> ''`.execute(db);
  await sql`
    create table email_warmup_usage (
      user_id integer not null references users(id) on delete cascade,
      day smallint not null check (day between 1 and 7),
      sent integer not null default 0 check (sent >= 0),
      primary key (user_id, day)
    )`.execute(db);
  // Row-level security like every church table (0048).
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  await sql.raw(`alter table email_warmup_usage enable row level security`).execute(db);
  await sql.raw(`create policy church_rows on email_warmup_usage using (${rule}) with check (${rule})`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table email_warmup_usage`.execute(db);
  await sql`drop index church_settings_sms_from_idx`.execute(db);
}
