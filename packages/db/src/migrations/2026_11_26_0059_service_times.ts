import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Issue 31 §3: a plan can be held at several times (09:00 and 11:00). The times are the plan's
// own ('HH:MM', in order); none means one service, at the plan's start time if it has one. The
// song-usage report counts a song once per service time.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table service_plans
      add column service_times text[] not null default '{}'
        check (cardinality(service_times) <= 6
          and array_to_string(service_times, ',') ~ '^([01][0-9]|2[0-3]):[0-5][0-9](,([01][0-9]|2[0-3]):[0-5][0-9])*$|^$')`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table service_plans drop column service_times`.execute(db);
}
