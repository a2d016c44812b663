import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Incoming texts as an intake (issue 32, `pnpm bench:inbound`): Twilio's webhook writes the text
// (one row of `sms_inbound_messages`, once per MessageSid) and answers; a job takes the rows not yet
// processed in batches (FOR UPDATE SKIP LOCKED) and puts each on its conversations, with its event
// and keyword actions, marking it processed in the same transaction. `processed_at` is null until
// then; the partial index is the job's queue. Every text already stored was processed when it came.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table sms_inbound_messages add column processed_at timestamptz`.execute(db);
  await sql`update sms_inbound_messages set processed_at = created_at`.execute(db);
  await sql`create index sms_inbound_messages_intake_idx on sms_inbound_messages (id) where processed_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index sms_inbound_messages_intake_idx`.execute(db);
  await sql`alter table sms_inbound_messages drop column processed_at`.execute(db);
}
