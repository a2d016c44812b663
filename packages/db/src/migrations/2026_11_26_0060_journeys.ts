import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Journeys (issue 29). A journey is a church's row with a status and the number of its current
// version; each version keeps the whole definition (trigger, entry rule, goal, steps) as JSON, so
// people already in a journey finish on the version they entered with while new entries get the
// newest. An enrolment is one person's way through one version: its position (the next step's id)
// and when that step is due; workers claim due enrolments with FOR UPDATE SKIP LOCKED and a lease.
// A step run is recorded once per (enrolment, step), in the transaction that moves the enrolment
// past it, so a step runs at most once whatever crashes. `trigger_key` makes one trigger (an event,
// a year's birthday) enrol a person once. A deleted contact's active enrolments end as exited.
//
// Journey emails and texts, and the emails of tasks and staff notices, are deliveries of the one
// engine (kind 'journey'), one per (enrolment, step, address). The trigger reader keeps a cursor
// per church over the event log (like the webhook endpoints' cursor). Tasks are follow-ups for a
// service-staff contact (or the church's own account when null).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table journeys (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      name text not null,
      description text not null default '',
      status text not null default 'draft' check (status in ('draft', 'active', 'paused', 'archived')),
      current_version integer not null default 1,
      activated_at timestamptz,
      activated_event_id bigint not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index journeys_church_idx on journeys (user_id, id)`.execute(db);

  await sql`
    create table journey_versions (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      journey_id integer not null references journeys(id) on delete cascade,
      version integer not null,
      definition jsonb not null,
      created_at timestamptz not null default now(),
      unique (journey_id, version)
    )`.execute(db);

  await sql`
    create table journey_enrollments (
      id bigint generated always as identity primary key,
      user_id integer not null references users(id) on delete cascade,
      journey_id integer not null references journeys(id) on delete cascade,
      version integer not null,
      contact_id integer references contacts(id) on delete set null,
      status text not null default 'active' check (status in ('active', 'completed', 'converted', 'exited')),
      current_step_id text,
      next_run_at timestamptz,
      entered_at timestamptz not null default now(),
      ended_at timestamptz,
      exit_reason text,
      test boolean not null default false,
      test_email text,
      trigger_key text,
      last_email_delivery_id integer,
      wait_until timestamptz,
      lease_until timestamptz,
      attempts integer not null default 0,
      last_error text
    ) with (fillfactor = 80)`.execute(db);
  await sql`create index journey_enrollments_due_idx on journey_enrollments (next_run_at) where status = 'active'`.execute(
    db,
  );
  await sql`create index journey_enrollments_journey_idx on journey_enrollments (journey_id, status, id)`.execute(db);
  await sql`create index journey_enrollments_contact_idx on journey_enrollments (contact_id, journey_id) where contact_id is not null`.execute(
    db,
  );
  await sql`
    create unique index journey_enrollments_trigger_key on journey_enrollments (journey_id, contact_id, trigger_key)
    where trigger_key is not null`.execute(db);

  // A contact deleted: its active enrolments end (the foreign key has just set contact_id to null).
  await sql`
    create function journey_enrollment_contact_gone() returns trigger language plpgsql as $$
    begin
      new.status := 'exited';
      new.exit_reason := 'Contact deleted';
      new.ended_at := now();
      new.next_run_at := null;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger journey_enrollments_contact_gone before update of contact_id on journey_enrollments
    for each row when (old.contact_id is not null and new.contact_id is null and old.status = 'active' and not old.test)
    execute function journey_enrollment_contact_gone()`.execute(db);

  await sql`
    create table journey_step_runs (
      id bigint generated always as identity primary key,
      user_id integer not null references users(id) on delete cascade,
      enrollment_id bigint not null references journey_enrollments(id) on delete cascade,
      step_id text not null,
      kind text not null,
      outcome text not null check (outcome in ('done', 'skipped', 'yes', 'no', 'failed')),
      detail text not null default '',
      delivery_id integer,
      created_at timestamptz not null default now(),
      unique (enrollment_id, step_id)
    )`.execute(db);

  await sql`
    create table journey_trigger_cursors (
      user_id integer primary key references users(id) on delete cascade,
      last_event_id bigint not null default 0,
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table tasks (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      title text not null,
      notes text not null default '',
      due_on date not null,
      status text not null default 'open' check (status in ('open', 'done')),
      assignee_contact_id integer references contacts(id) on delete set null,
      contact_id integer references contacts(id) on delete set null,
      journey_id integer references journeys(id) on delete set null,
      enrollment_id bigint references journey_enrollments(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      done_at timestamptz
    )`.execute(db);
  await sql`create index tasks_church_idx on tasks (user_id, status, id)`.execute(db);

  // Deliveries of kind 'journey': a journey's messages, one per (enrolment, step, address).
  await sql`
    alter table deliveries
      drop constraint deliveries_kind_refs,
      drop constraint deliveries_kind_check,
      add constraint deliveries_kind_check check (kind in ('campaign', 'planner-request', 'journey')),
      add column journey_id integer references journeys(id) on delete cascade,
      add column journey_enrollment_id bigint references journey_enrollments(id) on delete cascade,
      add column journey_step_id text,
      add constraint deliveries_kind_refs check (
        (kind = 'campaign' and campaign_id is not null)
        or (kind = 'planner-request' and campaign_id is null and service_plan_id is not null and assignment_id is not null)
        or (kind = 'journey' and campaign_id is null and journey_id is not null and journey_enrollment_id is not null
            and journey_step_id is not null)
      )`.execute(db);
  await sql`
    create unique index deliveries_journey_step_key on deliveries (journey_enrollment_id, journey_step_id, lower(address))
    where kind = 'journey'`.execute(db);
  await sql`
    create index deliveries_journey_work_idx on deliveries (journey_id, id)
    where kind = 'journey' and status in ('pending', 'sending')`.execute(db);
  await sql`
    alter table campaign_recipient_usage
      drop constraint campaign_recipient_usage_kind_check,
      add constraint campaign_recipient_usage_kind_check check (kind in ('campaign', 'planner-request', 'journey'))`.execute(
    db,
  );

  // Row-level security like every church table (0048).
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  for (const table of [
    'journeys',
    'journey_versions',
    'journey_enrollments',
    'journey_step_runs',
    'journey_trigger_cursors',
    'tasks',
  ]) {
    await sql.raw(`alter table ${table} enable row level security`).execute(db);
    await sql.raw(`create policy church_rows on ${table} using (${rule}) with check (${rule})`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from campaign_recipient_usage where kind = 'journey'`.execute(db);
  await sql`
    alter table campaign_recipient_usage
      drop constraint campaign_recipient_usage_kind_check,
      add constraint campaign_recipient_usage_kind_check check (kind in ('campaign', 'planner-request'))`.execute(db);
  await sql`delete from deliveries where kind = 'journey'`.execute(db);
  await sql`
    alter table deliveries
      drop constraint deliveries_kind_refs,
      drop constraint deliveries_kind_check,
      drop column journey_step_id,
      drop column journey_enrollment_id,
      drop column journey_id,
      add constraint deliveries_kind_check check (kind in ('campaign', 'planner-request')),
      add constraint deliveries_kind_refs check (
        (kind = 'campaign' and campaign_id is not null)
        or (kind = 'planner-request' and campaign_id is null and service_plan_id is not null and assignment_id is not null)
      )`.execute(db);
  await sql`drop table tasks`.execute(db);
  await sql`drop table journey_trigger_cursors`.execute(db);
  await sql`drop table journey_step_runs`.execute(db);
  await sql`drop table journey_enrollments`.execute(db);
  await sql`drop function journey_enrollment_contact_gone()`.execute(db);
  await sql`drop table journey_versions`.execute(db);
  await sql`drop table journeys`.execute(db);
}
