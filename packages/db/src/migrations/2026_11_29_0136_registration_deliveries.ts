import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// A registration's messages (its confirmation with the calendar file and a QR ticket per attendee,
// a waitlist place, a seat offered from the waitlist, a late payment refunded, a cancellation) are
// deliveries of kind 'registration' of the one engine, grouped by church: the delivery names the
// registration and which message (`registration_notice`); the driver writes it from the
// registration when it sends, so nothing but the delivery waits.
const KINDS = `('campaign', 'planner-request', 'journey', 'conversation-reply', 'planner-notice', 'giving-statement',
  'conversation-digest', 'task-notice', 'portal', 'registration')`;
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
  or (kind = 'portal' and campaign_id is null)`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table deliveries
      add column registration_id integer references calendar_registrations(id) on delete cascade,
      add column registration_notice text check (registration_notice in
        ('confirmed', 'waitlisted', 'pending_approval', 'offered', 'late_refund', 'cancelled', 'declined'))`.execute(
    db,
  );
  await sql
    .raw(
      `alter table deliveries
      drop constraint deliveries_kind_check,
      add constraint deliveries_kind_check check (kind in ${KINDS}),
      drop constraint deliveries_kind_refs,
      add constraint deliveries_kind_refs check (${REFS}
        or (kind = 'registration' and campaign_id is null and registration_id is not null
            and registration_notice is not null))`,
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
    create index deliveries_registration_work_idx on deliveries (user_id, id)
    where kind = 'registration' and status in ('pending', 'sending')`.execute(db);
  await sql`create index deliveries_registration_idx on deliveries (registration_id) where registration_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from deliveries where kind = 'registration'`.execute(db);
  await sql`drop index deliveries_registration_idx`.execute(db);
  await sql`drop index deliveries_registration_work_idx`.execute(db);
  const before = KINDS.replace(`, 'registration'`, '');
  await sql
    .raw(
      `alter table deliveries
      drop constraint deliveries_kind_check,
      add constraint deliveries_kind_check check (kind in ${before}),
      drop constraint deliveries_kind_refs,
      add constraint deliveries_kind_refs check (${REFS})`,
    )
    .execute(db);
  await sql`delete from campaign_recipient_usage where kind = 'registration'`.execute(db);
  await sql
    .raw(
      `alter table campaign_recipient_usage
      drop constraint campaign_recipient_usage_kind_check,
      add constraint campaign_recipient_usage_kind_check check (kind in ${before})`,
    )
    .execute(db);
  await sql`alter table deliveries drop column registration_notice, drop column registration_id`.execute(db);
}
