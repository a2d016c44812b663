import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Two more things an SMS keyword can do (issue 32 §3): start a journey for the texter
// (`journey_id`; the journey deleted, the action goes) and create a follow-up task (`task_title`,
// the text itself in its notes; e.g. PRAY → 'Prayer request').
//
// The staff email digest of unread conversations (issue 32 §2): each staff login's setting (off,
// hourly, daily), and the digest itself as a delivery of the one engine, of kind
// 'conversation-digest', naming its period ('hourly:2026-11-26T09', 'daily:2026-11-26'): one per
// login and period, whatever runs the schedule and however often.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table users
      add column conversation_digest text not null default 'off'
        check (conversation_digest in ('off', 'hourly', 'daily'))`.execute(db);
  await sql`
    alter table deliveries
      add column digest_period text,
      drop constraint deliveries_kind_check,
      add constraint deliveries_kind_check
        check (kind in ('campaign', 'planner-request', 'journey', 'conversation-reply', 'conversation-digest')),
      drop constraint deliveries_kind_refs,
      add constraint deliveries_kind_refs check (
        (kind = 'campaign' and campaign_id is not null)
        or (kind = 'planner-request' and campaign_id is null and service_plan_id is not null and assignment_id is not null)
        or (kind = 'journey' and campaign_id is null and journey_id is not null and journey_enrollment_id is not null
            and journey_step_id is not null)
        or (kind = 'conversation-reply' and campaign_id is null and conversation_id is not null)
        or (kind = 'conversation-digest' and campaign_id is null and digest_period is not null)
      )`.execute(db);
  await sql`
    create unique index deliveries_digest_key on deliveries (user_id, digest_period)
    where kind = 'conversation-digest'`.execute(db);
  await sql`
    alter table sms_keywords
      add column journey_id integer references journeys(id) on delete set null,
      add column task_title text check (task_title is null or length(task_title) between 1 and 200)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from deliveries where kind = 'conversation-digest'`.execute(db);
  await sql`drop index deliveries_digest_key`.execute(db);
  await sql`
    alter table deliveries
      drop constraint deliveries_kind_check,
      add constraint deliveries_kind_check check (kind in ('campaign', 'planner-request', 'journey', 'conversation-reply')),
      drop constraint deliveries_kind_refs,
      add constraint deliveries_kind_refs check (
        (kind = 'campaign' and campaign_id is not null)
        or (kind = 'planner-request' and campaign_id is null and service_plan_id is not null and assignment_id is not null)
        or (kind = 'journey' and campaign_id is null and journey_id is not null and journey_enrollment_id is not null
            and journey_step_id is not null)
        or (kind = 'conversation-reply' and campaign_id is null and conversation_id is not null)
      ),
      drop column digest_period`.execute(db);
  await sql`alter table users drop column conversation_digest`.execute(db);
  await sql`alter table sms_keywords drop column journey_id, drop column task_title`.execute(db);
}
