import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// The event log without a lock: until now each writer held its church's advisory lock from its
// events to its commit, so ids committed in order and readers paged by id; a church's imports,
// journeys, opens and gifts waited on each other. Now each event keeps the transaction that wrote it
// (`xid`, pg_current_xact_id(), the column's default: the insert stays one statement), and readers
// page by (xid, id) through events whose transaction ended before the oldest one still running in
// their snapshot (services/events/log.ts; docs/events.md says why nothing is skipped).
//
// Events written before this migration count as one old transaction (0), in id order: the lock
// made their ids commit in order. The readers' cursors start there at (0, their last event id), so
// they go on exactly where they were. The constant default first, so no row is rewritten.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table events add column xid xid8 not null default '0'`.execute(db);
  await sql`alter table events alter column xid set default pg_current_xact_id()`.execute(db);
  // The readers' order: a church's events after a position, by transaction then id.
  await sql`create index events_church_xid_idx on events (user_id, xid, id)`.execute(db);
  await sql`alter table webhook_endpoints add column last_event_xid xid8 not null default '0'`.execute(db);
  await sql`alter table journey_trigger_cursors add column last_event_xid xid8 not null default '0'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table journey_trigger_cursors drop column last_event_xid`.execute(db);
  await sql`alter table webhook_endpoints drop column last_event_xid`.execute(db);
  await sql`drop index events_church_xid_idx`.execute(db);
  await sql`alter table events drop column xid`.execute(db);
}
