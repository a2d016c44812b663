import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Opens, clicks and unsubscribes were written twice: a `delivery_events` row for
// every pixel load and every click, and the event log's `email.opened` (the first open),
// `email.clicked` (every click) and `email.unsubscribed`. The event log is the one record of what
// happened (docs/events.md); `delivery_events` keeps only what the statistics read, one row per
// delivery and type (opened, clicked, unsubscribed at least once), written in the transaction of
// the event and gated by this unique index: the insert that wins is the first, so two concurrent
// opens cannot both be 'first'. The repeats already stored are removed (the earliest stays).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    delete from delivery_events e
    using delivery_events f
    where e.type in ('open', 'click', 'unsubscribe') and f.delivery_id = e.delivery_id and f.type = e.type
      and f.id < e.id`.execute(db);
  await sql`
    create unique index delivery_events_once on delivery_events (delivery_id, type)
    where type in ('open', 'click', 'unsubscribe')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index delivery_events_once`.execute(db);
}
