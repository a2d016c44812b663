import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Where an event is on the map: optional coordinates of its location, set together or not at all.
// The public event page shows a map tile around them (besides the link to a map search).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table calendar_events
      add column latitude double precision check (latitude between -90 and 90),
      add column longitude double precision check (longitude between -180 and 180),
      add constraint calendar_events_coordinates_together check ((latitude is null) = (longitude is null))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table calendar_events drop column latitude, drop column longitude`.execute(db);
}
