import { sql, type Db } from '@lampstand/db';

/** Events deleted per statement: short statements, so the log's writers never wait long. */
export const RETENTION_BATCH = 5_000;

/**
 * The daily 'events-retention' job: each church's events older than its
 * `event_retention_days` (two years unless the church chose otherwise in Settings) are deleted,
 * `batchSize` per statement, until none is left. Answers how many were deleted.
 */
export async function deleteExpiredEvents(db: Db, opts: { batchSize?: number } = {}): Promise<number> {
  const batchSize = opts.batchSize ?? RETENTION_BATCH;
  // Only churches with something to delete: the oldest event of each, through (user_id, occurred_at).
  const { rows: churches } = await sql<{ userId: number; days: number }>`
    select u.id as user_id, coalesce(s.event_retention_days, 730) as days
    from users u left join church_settings s on s.user_id = u.id
    where exists (
      select 1 from events e
      where e.user_id = u.id
        and e.occurred_at < now() - make_interval(days => coalesce(s.event_retention_days, 730)))
    order by u.id`.execute(db);
  let deleted = 0;
  for (const church of churches) {
    for (;;) {
      const res = await sql`
        delete from events where id in (
          select id from events
          where user_id = ${church.userId} and occurred_at < now() - make_interval(days => ${church.days}::int)
          limit ${batchSize})`.execute(db);
      const n = Number(res.numAffectedRows ?? 0);
      deleted += n;
      if (n < batchSize) break;
    }
  }
  return deleted;
}
