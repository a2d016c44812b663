import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// One church per conversation.
//
// A church's own texting number (Settings → Texting): its Twilio number (`sms_from_number`, there
// since 0004) or a Messaging Service SID, with the Twilio account's SID and auth token (sealed,
// `enc:v1:…`, never in clear) and when the number was last checked with Twilio. Without its own
// credentials a church's own number is on the platform's account (as before).
//
// The shared platform number: `sms_shared_routes`, one row per person who texted it when more than
// one church had texted them (the question asked: which churches, in the order offered, when, and
// the answer) — platform data about a phone number, like `sms_inbound_messages`, not church-scoped.
// `sms_inbound_messages.messaging_service_sid`: the Messaging Service a text came through (a church's
// own service routes by it). `sms_inbound_messages.held_at`: a text on the shared number kept from every inbox until its
// sender answers the question; the answer releases it to the intake again.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table church_settings
      add column sms_messaging_service_sid text,
      add column sms_account_sid text,
      add column sms_auth_token text check (sms_auth_token is null or sms_auth_token like 'enc:v1:%'),
      add column sms_number_checked_at timestamptz`.execute(db);
  await sql`
    create index church_settings_sms_service_idx on church_settings (sms_messaging_service_sid)
    where sms_messaging_service_sid is not null`.execute(db);
  await sql`alter table sms_inbound_messages add column held_at timestamptz, add column messaging_service_sid text`.execute(
    db,
  );
  await sql`
    create index sms_inbound_messages_held_idx on sms_inbound_messages (from_number)
    where held_at is not null`.execute(db);
  await sql`
    create table sms_shared_routes (
      phone_e164 text primary key,
      offered_church_ids integer[] not null,
      asked_at timestamptz not null default now(),
      question text not null,
      question_sent_at timestamptz,
      chosen_church_id integer references users(id) on delete cascade,
      chosen_at timestamptz
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table sms_shared_routes`.execute(db);
  await sql`drop index sms_inbound_messages_held_idx`.execute(db);
  await sql`alter table sms_inbound_messages drop column held_at, drop column messaging_service_sid`.execute(db);
  await sql`drop index church_settings_sms_service_idx`.execute(db);
  await sql`
    alter table church_settings
      drop column sms_messaging_service_sid,
      drop column sms_account_sid,
      drop column sms_auth_token,
      drop column sms_number_checked_at`.execute(db);
}
