import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// A member acting in the portal (leaving a list, changing their details) is recorded as that
// person, through the portal: the actor kind 'portal' with the contact's id, instead of the
// anonymous 'public' a visitor of a public page is.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table events drop constraint events_actor_kind_check`.execute(db);
  await sql`alter table events add constraint events_actor_kind_check
    check (actor_kind in ('user', 'api_key', 'public', 'system', 'portal'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update events set actor_kind = 'public', actor_id = null where actor_kind = 'portal'`.execute(db);
  await sql`alter table events drop constraint events_actor_kind_check`.execute(db);
  await sql`alter table events add constraint events_actor_kind_check
    check (actor_kind in ('user', 'api_key', 'public', 'system'))`.execute(db);
}
