import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Staff message an event's registrants (email and SMS). `calendar_messages` keeps what staff wrote
// (subject, text, channels, who sent it, how many it went to); each recipient is a delivery of kind
// 'registration' of the one engine whose `registration_notice` is 'message' and whose
// `calendar_message_id` names the message, so the driver writes the email or text when it sends.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table calendar_messages (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      event_id integer not null references calendar_events(id) on delete cascade,
      subject text not null default '',
      body text not null,
      channels text[] not null check (channels <@ array['email', 'sms']::text[] and cardinality(channels) > 0),
      sent_by integer references users(id) on delete set null,
      email_count integer not null default 0,
      sms_count integer not null default 0,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index calendar_messages_event_idx on calendar_messages (event_id)`.execute(db);
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  await sql.raw(`alter table calendar_messages enable row level security`).execute(db);
  await sql.raw(`create policy church_rows on calendar_messages using (${rule}) with check (${rule})`).execute(db);

  await sql`
    alter table deliveries
      add column calendar_message_id integer references calendar_messages(id) on delete cascade,
      drop constraint deliveries_registration_notice_check,
      add constraint deliveries_registration_notice_check check (registration_notice in
        ('confirmed', 'waitlisted', 'pending_approval', 'offered', 'late_refund', 'cancelled', 'declined', 'message')),
      add constraint deliveries_calendar_message_ref check (
        (registration_notice = 'message') = (calendar_message_id is not null))`.execute(db);
  await sql`create index deliveries_calendar_message_idx on deliveries (calendar_message_id)
    where calendar_message_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from deliveries where registration_notice = 'message'`.execute(db);
  await sql`
    alter table deliveries
      drop constraint deliveries_calendar_message_ref,
      drop constraint deliveries_registration_notice_check,
      add constraint deliveries_registration_notice_check check (registration_notice in
        ('confirmed', 'waitlisted', 'pending_approval', 'offered', 'late_refund', 'cancelled', 'declined')),
      drop column calendar_message_id`.execute(db);
  await sql`drop table calendar_messages`.execute(db);
}
