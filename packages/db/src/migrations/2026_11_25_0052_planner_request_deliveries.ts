import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Planner requests are deliveries of the one engine (issue 24 §15): a delivery has a kind. A
// campaign's deliveries belong to their campaign; a planner request's to its service plan (the
// engine claims a plan's requests together) and to the assignment it asks about. The daily limit
// counts what each kind enqueued, so its usage rows get the kind too.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table deliveries
      add column kind text not null default 'campaign' check (kind in ('campaign', 'planner-request')),
      alter column campaign_id drop not null,
      add column service_plan_id integer references service_plans(id) on delete cascade,
      add column assignment_id integer references service_plan_assignments(id) on delete cascade,
      add constraint deliveries_kind_refs check (
        (kind = 'campaign' and campaign_id is not null)
        or (kind = 'planner-request' and campaign_id is null and service_plan_id is not null and assignment_id is not null)
      )`.execute(db);
  await sql`
    create index deliveries_planner_work_idx on deliveries (service_plan_id, id)
    where kind = 'planner-request' and status in ('pending', 'sending')`.execute(db);
  await sql`create index deliveries_assignment_idx on deliveries (assignment_id, id) where assignment_id is not null`.execute(
    db,
  );
  await sql`
    alter table campaign_recipient_usage
      add column kind text not null default 'campaign' check (kind in ('campaign', 'planner-request')),
      alter column campaign_id drop not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from campaign_recipient_usage where kind <> 'campaign'`.execute(db);
  await sql`alter table campaign_recipient_usage alter column campaign_id set not null, drop column kind`.execute(db);
  await sql`delete from deliveries where kind <> 'campaign'`.execute(db);
  await sql`
    alter table deliveries
      drop constraint deliveries_kind_refs,
      drop column assignment_id,
      drop column service_plan_id,
      alter column campaign_id set not null,
      drop column kind`.execute(db);
}
