import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Two more things an SMS keyword can do (issue 32 §3): start a journey for the texter
// (`journey_id`; the journey deleted, the action goes) and create a follow-up task (`task_title`,
// the text itself in its notes; e.g. PRAY → 'Prayer request').
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table sms_keywords
      add column journey_id integer references journeys(id) on delete set null,
      add column task_title text check (task_title is null or length(task_title) between 1 and 200)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table sms_keywords drop column journey_id, drop column task_title`.execute(db);
}
