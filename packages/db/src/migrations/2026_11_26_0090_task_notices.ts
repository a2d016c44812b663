import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// A follow-up task's email to the person it is assigned to, for tasks not made by a journey step
// (a journey's task email is that step's own delivery): one reassigned to someone else, or made
// by a text keyword (issue 29 §3, issue 32 §3). A delivery of kind 'task-notice' of the one engine,
// grouped by church, once per task and address.
const KINDS = `('campaign', 'planner-request', 'journey', 'conversation-reply', 'planner-notice', 'giving-statement',
  'conversation-digest', 'task-notice')`;
const REFS = `
  (kind = 'campaign' and campaign_id is not null)
  or (kind = 'planner-request' and campaign_id is null and service_plan_id is not null and assignment_id is not null)
  or (kind = 'journey' and campaign_id is null and journey_id is not null and journey_enrollment_id is not null
      and journey_step_id is not null)
  or (kind = 'conversation-reply' and campaign_id is null and conversation_id is not null)
  or (kind = 'planner-notice' and campaign_id is null and service_plan_id is not null and assignment_id is not null
      and planner_notice is not null)
  or (kind = 'giving-statement' and campaign_id is null and statement_run_id is not null and contact_id is not null)
  or (kind = 'conversation-digest' and campaign_id is null and digest_period is not null)`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table deliveries add column task_id integer references tasks(id) on delete cascade`.execute(db);
  await sql
    .raw(
      `alter table deliveries
      drop constraint deliveries_kind_check,
      add constraint deliveries_kind_check check (kind in ${KINDS}),
      drop constraint deliveries_kind_refs,
      add constraint deliveries_kind_refs check (${REFS}
        or (kind = 'task-notice' and campaign_id is null and task_id is not null))`,
    )
    .execute(db);
  await sql
    .raw(
      `alter table campaign_recipient_usage
      drop constraint campaign_recipient_usage_kind_check,
      add constraint campaign_recipient_usage_kind_check check (kind in ${KINDS})`,
    )
    .execute(db);
  await sql`
    create unique index deliveries_task_notice_key on deliveries (task_id, lower(address))
    where kind = 'task-notice'`.execute(db);
  await sql`
    create index deliveries_task_notice_work_idx on deliveries (user_id, id)
    where kind = 'task-notice' and status in ('pending', 'sending')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from deliveries where kind = 'task-notice'`.execute(db);
  await sql`drop index deliveries_task_notice_work_idx`.execute(db);
  await sql`drop index deliveries_task_notice_key`.execute(db);
  const before = KINDS.replace(`, 'task-notice'`, '');
  await sql
    .raw(
      `alter table deliveries
      drop constraint deliveries_kind_check,
      add constraint deliveries_kind_check check (kind in ${before}),
      drop constraint deliveries_kind_refs,
      add constraint deliveries_kind_refs check (${REFS})`,
    )
    .execute(db);
  await sql
    .raw(
      `alter table campaign_recipient_usage
      drop constraint campaign_recipient_usage_kind_check,
      add constraint campaign_recipient_usage_kind_check check (kind in ${before})`,
    )
    .execute(db);
  await sql`alter table deliveries drop column task_id`.execute(db);
}
