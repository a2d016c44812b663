import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Issue 31 §6–7: reminders before a plan (the church's offsets, default 3 days and 1 day), and a
// declined or swapped slot offered to free teammates (the first to accept gets it; nobody within
// the church's time → the leader is told). Every such message is a delivery of kind
// 'planner-notice' of the one engine; `planner_notice` names which message it is, and one
// (assignment, notice, channel) is written once: a reminder goes out exactly once per offset.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table service_planner_settings (
      user_id integer primary key references users(id) on delete cascade,
      reminder_days integer[] not null default '{3,1}'
        check (cardinality(reminder_days) <= 4 and 1 <= all(reminder_days) and 7 >= all(reminder_days)),
      substitute_hours integer not null default 48 check (substitute_hours between 1 and 336),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table substitute_offers (
      id integer generated always as identity primary key,
      user_id integer not null references users(id) on delete cascade,
      assignment_id integer not null references service_plan_assignments(id) on delete cascade,
      service_plan_id integer not null references service_plans(id) on delete cascade,
      kind text not null check (kind in ('substitute', 'swap')),
      status text not null default 'open' check (status in ('open', 'filled', 'unfilled', 'cancelled')),
      expires_at timestamptz not null,
      filled_assignment_id integer references service_plan_assignments(id) on delete set null,
      filled_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index substitute_offers_one_open on substitute_offers (assignment_id) where status = 'open'`.execute(
    db,
  );
  await sql`create index substitute_offers_due on substitute_offers (expires_at) where status = 'open'`.execute(db);
  await sql`
    create table substitute_offer_candidates (
      id integer generated always as identity primary key,
      user_id integer not null references users(id) on delete cascade,
      offer_id integer not null references substitute_offers(id) on delete cascade,
      team_member_id integer not null references team_members(id) on delete cascade,
      token text not null unique,
      answered_at timestamptz,
      unique (offer_id, team_member_id)
    )`.execute(db);

  await sql`
    alter table deliveries
      drop constraint deliveries_kind_check,
      add constraint deliveries_kind_check
        check (kind in ('campaign', 'planner-request', 'journey', 'conversation-reply', 'planner-notice')),
      add column planner_notice text,
      add column substitute_offer_id integer references substitute_offers(id) on delete cascade,
      drop constraint deliveries_kind_refs,
      add constraint deliveries_kind_refs check (
        (kind = 'campaign' and campaign_id is not null)
        or (kind = 'planner-request' and campaign_id is null and service_plan_id is not null and assignment_id is not null)
        or (kind = 'journey' and campaign_id is null and journey_id is not null and journey_enrollment_id is not null
            and journey_step_id is not null)
        or (kind = 'conversation-reply' and campaign_id is null and conversation_id is not null)
        or (kind = 'planner-notice' and campaign_id is null and service_plan_id is not null and assignment_id is not null
            and planner_notice is not null)
      )`.execute(db);
  await sql`
    create unique index deliveries_planner_notice_key on deliveries (assignment_id, planner_notice, channel)
    where kind = 'planner-notice'`.execute(db);
  await sql`
    create index deliveries_planner_notice_work_idx on deliveries (service_plan_id, id)
    where kind = 'planner-notice' and status in ('pending', 'sending')`.execute(db);
  await sql`
    alter table campaign_recipient_usage
      drop constraint campaign_recipient_usage_kind_check,
      add constraint campaign_recipient_usage_kind_check
        check (kind in ('campaign', 'planner-request', 'journey', 'conversation-reply', 'planner-notice'))`.execute(db);

  // Row-level security like every church table (0048).
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  for (const table of ['service_planner_settings', 'substitute_offers', 'substitute_offer_candidates']) {
    await sql.raw(`alter table ${table} enable row level security`).execute(db);
    await sql.raw(`create policy church_rows on ${table} using (${rule}) with check (${rule})`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from campaign_recipient_usage where kind = 'planner-notice'`.execute(db);
  await sql`
    alter table campaign_recipient_usage
      drop constraint campaign_recipient_usage_kind_check,
      add constraint campaign_recipient_usage_kind_check
        check (kind in ('campaign', 'planner-request', 'journey', 'conversation-reply'))`.execute(db);
  await sql`delete from deliveries where kind = 'planner-notice'`.execute(db);
  await sql`
    alter table deliveries
      drop constraint deliveries_kind_refs,
      drop constraint deliveries_kind_check,
      drop column substitute_offer_id,
      drop column planner_notice,
      add constraint deliveries_kind_check check (kind in ('campaign', 'planner-request', 'journey', 'conversation-reply')),
      add constraint deliveries_kind_refs check (
        (kind = 'campaign' and campaign_id is not null)
        or (kind = 'planner-request' and campaign_id is null and service_plan_id is not null and assignment_id is not null)
        or (kind = 'journey' and campaign_id is null and journey_id is not null and journey_enrollment_id is not null
            and journey_step_id is not null)
        or (kind = 'conversation-reply' and campaign_id is null and conversation_id is not null)
      )`.execute(db);
  await sql`drop table substitute_offer_candidates`.execute(db);
  await sql`drop table substitute_offers`.execute(db);
  await sql`drop table service_planner_settings`.execute(db);
}
