import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// The members' portal's messages (a sign-in link or code, a change's confirmation) become
// deliveries of kind 'portal' of the one engine: the request answers at once and the
// worker sends, so a known address takes no longer than an unknown one. The message itself (it
// carries the one-time link or code) waits in `portal_messages` beside its delivery and is deleted
// once the delivery is sent or failed.
const KINDS = `('campaign', 'planner-request', 'journey', 'conversation-reply', 'planner-notice', 'giving-statement',
  'conversation-digest', 'task-notice', 'portal')`;
const REFS = `
  (kind = 'campaign' and campaign_id is not null)
  or (kind = 'planner-request' and campaign_id is null and service_plan_id is not null and assignment_id is not null)
  or (kind = 'journey' and campaign_id is null and journey_id is not null and journey_enrollment_id is not null
      and journey_step_id is not null)
  or (kind = 'conversation-reply' and campaign_id is null and conversation_id is not null)
  or (kind = 'planner-notice' and campaign_id is null and service_plan_id is not null and assignment_id is not null
      and planner_notice is not null)
  or (kind = 'giving-statement' and campaign_id is null and statement_run_id is not null and contact_id is not null)
  or (kind = 'conversation-digest' and campaign_id is null and digest_period is not null)
  or (kind = 'task-notice' and campaign_id is null and task_id is not null)`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `alter table deliveries
      drop constraint deliveries_kind_check,
      add constraint deliveries_kind_check check (kind in ${KINDS}),
      drop constraint deliveries_kind_refs,
      add constraint deliveries_kind_refs check (${REFS}
        or (kind = 'portal' and campaign_id is null))`,
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
    create index deliveries_portal_work_idx on deliveries (user_id, id)
    where kind = 'portal' and status in ('pending', 'sending')`.execute(db);
  await sql`
    create table portal_messages (
      delivery_id integer primary key references deliveries(id) on delete cascade,
      user_id integer not null references users(id) on delete cascade,
      subject text,
      html text,
      text text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index portal_messages_church_idx on portal_messages (user_id)`.execute(db);
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  await sql.raw(`alter table portal_messages enable row level security`).execute(db);
  await sql.raw(`create policy church_rows on portal_messages using (${rule}) with check (${rule})`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table portal_messages`.execute(db);
  await sql`delete from deliveries where kind = 'portal'`.execute(db);
  await sql`drop index deliveries_portal_work_idx`.execute(db);
  const before = KINDS.replace(`, 'portal'`, '');
  await sql
    .raw(
      `alter table deliveries
      drop constraint deliveries_kind_check,
      add constraint deliveries_kind_check check (kind in ${before}),
      drop constraint deliveries_kind_refs,
      add constraint deliveries_kind_refs check (${REFS})`,
    )
    .execute(db);
  await sql`delete from campaign_recipient_usage where kind = 'portal'`.execute(db);
  await sql
    .raw(
      `alter table campaign_recipient_usage
      drop constraint campaign_recipient_usage_kind_check,
      add constraint campaign_recipient_usage_kind_check check (kind in ${before})`,
    )
    .execute(db);
}
