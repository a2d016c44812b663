import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Every kind of delivery of the one engine, together. Issues 30, 31 and 32 each added theirs
// (0081 'planner-notice', 0083 'giving-statement', 0087 'conversation-digest') starting from the
// same list, so each later constraint left the others out; this one names them all.
const KINDS = `('campaign', 'planner-request', 'journey', 'conversation-reply', 'planner-notice', 'giving-statement',
  'conversation-digest')`;

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
        or (kind = 'conversation-digest' and campaign_id is null and digest_period is not null)
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

// Back to what the migrations before left: deliveries as 0087 wrote them (the kinds before issues 30
// and 31, and the digest), the daily usage as 0083 wrote it.
export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from campaign_recipient_usage where kind in ('planner-notice', 'conversation-digest')`.execute(db);
  await sql`delete from deliveries where kind in ('planner-notice', 'giving-statement')`.execute(db);
  await sql`
    alter table campaign_recipient_usage
      drop constraint campaign_recipient_usage_kind_check,
      add constraint campaign_recipient_usage_kind_check
        check (kind in ('campaign', 'planner-request', 'journey', 'conversation-reply', 'giving-statement'))`.execute(
    db,
  );
  const before = `('campaign', 'planner-request', 'journey', 'conversation-reply', 'conversation-digest')`;
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
        or (kind = 'conversation-digest' and campaign_id is null and digest_period is not null)
      )`,
    )
    .execute(db);
}
