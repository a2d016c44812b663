import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// What PostgreSQL did per journey message that it did not need to (issue 29's `pnpm bench:journeys`,
// read from pg_stat_statements and auto_explain; docs/benchmarks.md 'Journeys').
//
// 1. A contact looked up by its address, `lower(email) = …`, under the row policies. The app's role
//    reads contacts through the policy of migration 0095, and PostgreSQL lets a condition into an
//    index scan ahead of a policy only when every function in it is leakproof. `lower()` is not, so
//    the expression index `contacts_user_email_idx (user_id, lower(email))` was never used by the
//    app: each such lookup read every contact of the table (a journey's 250 people checked for
//    'unsubscribed': ~30 ms alone, 120 ms under load, a parallel scan each; a sign-up, a gift, an
//    import's batch and a merge did the same). `email_lower` keeps the lowered address as a stored
//    column, so a lookup compares a column with `=` (leakproof) and its index is used under the
//    policy. It replaces the expression index, which had no reader.
// 2. The journey runner claims the due enrolments oldest first (`order by next_run_at, id`), but
//    the index of due enrolments held `next_run_at` alone: every claim read all due enrolments and
//    sorted them to take its 500 (100,000 enrolled at once: ~100 ms a claim). With `id` in the index
//    a claim reads its rows in order and stops.
// 3. A campaign's keys and work index held every delivery, the others' with a null campaign: a
//    journey's message (inserted, claimed, marked sent: three row versions, none of them HOT, since
//    `status` is in index predicates) wrote 8 entries into them that nothing reads. They now hold
//    campaigns' deliveries only (`campaign_id is not null`, which `campaign_id = $1` implies, so the
//    campaign's claims and `on conflict do nothing` use them as before).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table contacts add column email_lower text generated always as (lower(email)) stored`.execute(db);
  await sql`create index contacts_user_email_lower_idx on contacts (user_id, email_lower)`.execute(db);
  await sql`drop index contacts_user_email_idx`.execute(db);
  await sql`create index journey_enrollments_due_order_idx on journey_enrollments (next_run_at, id) where status = 'active'`.execute(
    db,
  );
  await sql`drop index journey_enrollments_due_idx`.execute(db);
  await sql`drop index deliveries_contact_key`.execute(db);
  await sql`drop index deliveries_address_key`.execute(db);
  await sql`drop index deliveries_work_idx`.execute(db);
  await sql`create unique index deliveries_contact_key on deliveries (channel, campaign_id, contact_id) where campaign_id is not null`.execute(
    db,
  );
  await sql`create unique index deliveries_address_key on deliveries (channel, campaign_id, lower(address)) where campaign_id is not null`.execute(
    db,
  );
  await sql`create index deliveries_work_idx on deliveries (channel, campaign_id, id)
            where status in ('pending', 'sending') and campaign_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index deliveries_contact_key`.execute(db);
  await sql`drop index deliveries_address_key`.execute(db);
  await sql`drop index deliveries_work_idx`.execute(db);
  await sql`create unique index deliveries_contact_key on deliveries (channel, campaign_id, contact_id)`.execute(db);
  await sql`create unique index deliveries_address_key on deliveries (channel, campaign_id, lower(address))`.execute(
    db,
  );
  await sql`create index deliveries_work_idx on deliveries (channel, campaign_id, id) where status in ('pending', 'sending')`.execute(
    db,
  );
  await sql`create index journey_enrollments_due_idx on journey_enrollments (next_run_at) where status = 'active'`.execute(
    db,
  );
  await sql`drop index journey_enrollments_due_order_idx`.execute(db);
  await sql`create index contacts_user_email_idx on contacts (user_id, lower(email))`.execute(db);
  await sql`drop index contacts_user_email_lower_idx`.execute(db);
  await sql`alter table contacts drop column email_lower`.execute(db);
}
