import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// A volunteer asked for several dates at once gets one email listing them: the request's delivery
// (kind 'planner-request', its `assignment_id` the first of them) names every assignment it asks
// about through `request_delivery_id`. Null for a request sent alone (its delivery's
// `assignment_id` names it) and once the delivery is gone.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table service_plan_assignments
      add column request_delivery_id bigint references deliveries(id) on delete set null`.execute(db);
  await sql`
    create index service_plan_assignments_request_delivery_idx on service_plan_assignments (request_delivery_id)
    where request_delivery_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table service_plan_assignments drop column request_delivery_id`.execute(db);
}
