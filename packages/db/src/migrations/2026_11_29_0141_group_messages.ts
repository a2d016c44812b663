import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// A group's leader (or staff) messages the group's members by email or text: one row in
// `group_messages` (who sent it, under which name, the words) and one delivery of kind
// 'group-message' of the one engine per member and address, grouped by church like the portal's
// messages. The engine asks the contact rule of each (operational: consent, suppression, STOP,
// quiet hours); a text's reply reaches the church's conversations like any text it sent.
const KINDS = `('campaign', 'planner-request', 'journey', 'conversation-reply', 'planner-notice', 'giving-statement',
  'conversation-digest', 'task-notice', 'portal', 'registration', 'group-message')`;
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
  or (kind = 'task-notice' and campaign_id is null and task_id is not null)
  or (kind = 'portal' and campaign_id is null)
  or (kind = 'registration' and campaign_id is null and registration_id is not null
      and registration_notice is not null)`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table group_messages (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      group_id integer not null references groups(id) on delete cascade,
      sender_contact_id integer references contacts(id) on delete set null,
      sender_name text not null,
      channel text not null check (channel in ('email', 'sms')),
      subject text,
      body text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index group_messages_group_idx on group_messages (group_id, created_at)`.execute(db);
  await sql`create index group_messages_church_idx on group_messages (user_id)`.execute(db);
  await sql`alter table deliveries add column group_message_id integer references group_messages(id) on delete cascade`.execute(
    db,
  );
  await sql
    .raw(
      `alter table deliveries
      drop constraint deliveries_kind_check,
      add constraint deliveries_kind_check check (kind in ${KINDS}),
      drop constraint deliveries_kind_refs,
      add constraint deliveries_kind_refs check (${REFS}
        or (kind = 'group-message' and campaign_id is null and group_message_id is not null))`,
    )
    .execute(db);
  await sql
    .raw(
      `alter table campaign_recipient_usage
      drop constraint campaign_recipient_usage_kind_check,
      add constraint campaign_recipient_usage_kind_check check (kind in ${KINDS})`,
    )
    .execute(db);
  // One delivery per message and address; the sender's work (claim by church) and the message's figures.
  await sql`
    create unique index deliveries_group_message_key on deliveries (group_message_id, channel, lower(address))
    where kind = 'group-message'`.execute(db);
  await sql`
    create index deliveries_group_message_work_idx on deliveries (user_id, id)
    where kind = 'group-message' and status in ('pending', 'sending')`.execute(db);

  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  await sql.raw(`alter table group_messages enable row level security`).execute(db);
  await sql.raw(`create policy church_rows on group_messages using (${rule}) with check (${rule})`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from deliveries where kind = 'group-message'`.execute(db);
  await sql`delete from campaign_recipient_usage where kind = 'group-message'`.execute(db);
  const before = KINDS.replace(`, 'group-message'`, '');
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
  await sql`alter table deliveries drop column group_message_id`.execute(db);
  await sql`drop table group_messages`.execute(db);
}
