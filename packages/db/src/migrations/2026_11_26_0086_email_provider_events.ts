import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Provider event webhooks (issue 32 §5): each bounce or complaint event an email provider posts
// (Amazon SES through SNS, Postmark) is recorded once, by the provider's own event id, in the same
// transaction as the bounce it records: a provider that sends an event again changes nothing.
// Platform-wide (the event names the church only through the delivery it is about).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table email_provider_events (
      provider text not null,
      event_id text not null,
      received_at timestamptz not null default now(),
      primary key (provider, event_id)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table email_provider_events`.execute(db);
}
