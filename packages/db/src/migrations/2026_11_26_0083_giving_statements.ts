import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Giving statements (issue 30 §8): the church's tax id (Settings, printed on statements); a
// statement run (a date range, built by a job with its progress: done of total), one statement
// per donor (a contact) with its PDF, and the combined PDF to print for donors without an email.
// Each emailed statement is a delivery of kind 'giving-statement' of the one engine, one per
// (run, donor): the unique index below. A gift may say what goods or services were given for it. Outbox messages record the names of their attachments.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table church_settings add column tax_id text`.execute(db);
  // What the donor received for a gift, if anything (a dinner ticket, its value): the statement
  // names it instead of saying no goods or services were provided.
  await sql`alter table gifts add column goods_services text`.execute(db);

  await sql`
    create table giving_statement_runs (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      from_date date not null,
      to_date date not null check (to_date >= from_date),
      status text not null default 'queued' check (status in ('queued', 'building', 'sending', 'done', 'failed')),
      total integer not null default 0,
      done integer not null default 0,
      combined_pdf bytea,
      error text,
      created_by integer references users(id) on delete set null,
      finished_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index giving_statement_runs_church_idx on giving_statement_runs (user_id, id desc)`.execute(db);

  await sql`
    create table giving_statements (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      run_id integer not null references giving_statement_runs(id) on delete cascade,
      contact_id integer not null references contacts(id) on delete cascade,
      donor_name text not null,
      donor_email text,
      donor_address text,
      gift_count integer not null,
      total_cents bigint not null,
      pdf bytea,
      created_at timestamptz not null default now(),
      unique (run_id, contact_id)
    )`.execute(db);
  await sql`create index giving_statements_contact_idx on giving_statements (contact_id, run_id)`.execute(db);
  await sql`create index giving_statements_unbuilt_idx on giving_statements (run_id, id) where pdf is null`.execute(db);

  await sql`
    alter table deliveries
      drop constraint deliveries_kind_check,
      add constraint deliveries_kind_check
        check (kind in ('campaign', 'planner-request', 'journey', 'conversation-reply', 'giving-statement')),
      add column statement_run_id integer references giving_statement_runs(id) on delete cascade,
      drop constraint deliveries_kind_refs,
      add constraint deliveries_kind_refs check (
        (kind = 'campaign' and campaign_id is not null)
        or (kind = 'planner-request' and campaign_id is null and service_plan_id is not null and assignment_id is not null)
        or (kind = 'journey' and campaign_id is null and journey_id is not null and journey_enrollment_id is not null
            and journey_step_id is not null)
        or (kind = 'conversation-reply' and campaign_id is null and conversation_id is not null)
        or (kind = 'giving-statement' and campaign_id is null and statement_run_id is not null and contact_id is not null)
      )`.execute(db);
  await sql`
    create unique index deliveries_statement_once on deliveries (statement_run_id, contact_id)
    where kind = 'giving-statement'`.execute(db);
  await sql`
    create index deliveries_statement_work_idx on deliveries (statement_run_id, id)
    where kind = 'giving-statement' and status in ('pending', 'sending')`.execute(db);
  await sql`
    alter table campaign_recipient_usage
      drop constraint campaign_recipient_usage_kind_check,
      add constraint campaign_recipient_usage_kind_check
        check (kind in ('campaign', 'planner-request', 'journey', 'conversation-reply', 'giving-statement'))`.execute(
    db,
  );

  await sql`alter table outbox_messages add column attachments jsonb not null default '[]'::jsonb`.execute(db);

  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  for (const table of ['giving_statement_runs', 'giving_statements']) {
    await sql.raw(`alter table ${table} enable row level security`).execute(db);
    await sql.raw(`create policy church_rows on ${table} using (${rule}) with check (${rule})`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table outbox_messages drop column attachments`.execute(db);
  await sql`delete from campaign_recipient_usage where kind = 'giving-statement'`.execute(db);
  await sql`
    alter table campaign_recipient_usage
      drop constraint campaign_recipient_usage_kind_check,
      add constraint campaign_recipient_usage_kind_check
        check (kind in ('campaign', 'planner-request', 'journey', 'conversation-reply'))`.execute(db);
  await sql`delete from deliveries where kind = 'giving-statement'`.execute(db);
  await sql`
    alter table deliveries
      drop constraint deliveries_kind_refs,
      drop column statement_run_id,
      drop constraint deliveries_kind_check,
      add constraint deliveries_kind_check check (kind in ('campaign', 'planner-request', 'journey', 'conversation-reply')),
      add constraint deliveries_kind_refs check (
        (kind = 'campaign' and campaign_id is not null)
        or (kind = 'planner-request' and campaign_id is null and service_plan_id is not null and assignment_id is not null)
        or (kind = 'journey' and campaign_id is null and journey_id is not null and journey_enrollment_id is not null
            and journey_step_id is not null)
        or (kind = 'conversation-reply' and campaign_id is null and conversation_id is not null)
      )`.execute(db);
  await sql`drop table giving_statements`.execute(db);
  await sql`drop table giving_statement_runs`.execute(db);
  await sql`alter table gifts drop column goods_services`.execute(db);
  await sql`alter table church_settings drop column tax_id`.execute(db);
}
