import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Issue 31 §3: an assignment is for one of its plan's service times ('09:00'), or for all of them
// (null, what every assignment was before). The time is one of the plan's; the service checks it.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table service_plan_assignments
      add column service_time text check (service_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table service_plan_assignments drop column service_time`.execute(db);
}
