import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Every kind of delivery of the one engine, together. Issues 30 and 31 each added theirs
// (0081 'planner-notice', 0083 'giving-statement') starting from the same list, so the later
// constraint left the other out; this one names them all.
const KINDS = `('campaign', 'planner-request', 'journey', 'conversation-reply', 'planner-notice', 'giving-statement')`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `alter table deliveries
      drop constraint deliveries_kind_check,
      add constraint deliveries_kind_check check (kind in ${KINDS}),
      drop constraint deliveries_kind_refs,
      add constraint deliveries_kind_refs check (
        (kind = 'campaign' and campaign_id is not null)
        or (kind = 'planner-request' and campaign_id is null and service_plan_id is not null and assignment_id is not null)
        or (kind = 'journey' and campaign_id is null and journey_id is not null and journey_enrollment_id is not null
            and journey_step_id is not null)
        or (kind = 'conversation-reply' and campaign_id is null and conversation_id is not null)
        or (kind = 'planner-notice' and campaign_id is null and service_plan_id is not null and assignment_id is not null
            and planner_notice is not null)
        or (kind = 'giving-statement' and campaign_id is null and statement_run_id is not null and contact_id is not null)
      )`,
    )
    .execute(db);
  await sql
    .raw(
      `alter table campaign_recipient_usage
      drop constraint campaign_recipient_usage_kind_check,
      add constraint campaign_recipient_usage_kind_check check (kind in ${KINDS})`,
    )
    .execute(db);
}

// Back to what 0083 left (0081's kind is dropped again there).
export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from campaign_recipient_usage where kind = 'planner-notice'`.execute(db);
  await sql`delete from deliveries where kind = 'planner-notice'`.execute(db);
  const before = `('campaign', 'planner-request', 'journey', 'conversation-reply', 'giving-statement')`;
  await sql
    .raw(
      `alter table deliveries
      drop constraint deliveries_kind_check,
      add constraint deliveries_kind_check check (kind in ${before}),
      drop constraint deliveries_kind_refs,
      add constraint deliveries_kind_refs check (
        (kind = 'campaign' and campaign_id is not null)
        or (kind = 'planner-request' and campaign_id is null and service_plan_id is not null and assignment_id is not null)
        or (kind = 'journey' and campaign_id is null and journey_id is not null and journey_enrollment_id is not null
            and journey_step_id is not null)
        or (kind = 'conversation-reply' and campaign_id is null and conversation_id is not null)
        or (kind = 'giving-statement' and campaign_id is null and statement_run_id is not null and contact_id is not null)
      )`,
    )
    .execute(db);
  await sql
    .raw(
      `alter table campaign_recipient_usage
      drop constraint campaign_recipient_usage_kind_check,
      add constraint campaign_recipient_usage_kind_check check (kind in ${before})`,
    )
    .execute(db);
}
