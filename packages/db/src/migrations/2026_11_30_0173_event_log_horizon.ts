import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Where the event log is settled up to, for this database alone. Until now readers took the
// xmin of their snapshot: the oldest transaction still running anywhere on the server. Transaction
// ids are the server's, so a long write transaction in another database of the same server (a
// report, another application, a test's database) held back every webhook and journey trigger
// here until it ended, though it can never write to this database's events.
//
// `event_log_horizon()` is the oldest of: the transactions still running in the caller's snapshot
// that are not known to run in another database, the caller's own transaction, and the snapshot's
// xmax. A running transaction is known to be another database's only when the server's activity
// (pg_stat_get_activity) shows it, with its database, on a backend; one that ended meanwhile, one
// the function may not see (another login's, when its owner is not a superuser or pg_read_all_stats)
// or a prepared transaction counts as this database's, as before: the horizon is never later than
// it may be. Security definer, so that it sees the backends its owner (the migrating login) may;
// it returns an id and nothing else. Stable: it reads the caller's snapshot.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function event_log_horizon() returns xid8
    language sql stable security definer
    set search_path = pg_catalog, pg_temp
    as $$
      select least(
        pg_snapshot_xmax(s.snap),
        pg_current_xact_id_if_assigned(),
        (select min(x) from pg_snapshot_xip(s.snap) x
          where xid(x) not in (
            select a.backend_xid from pg_stat_get_activity(null) a
            where a.backend_xid is not null
              and a.datid <> (select d.oid from pg_database d where d.datname = current_database()))))
      from (select pg_current_snapshot() as snap) s
    $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function event_log_horizon()`.execute(db);
}
