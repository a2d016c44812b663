import { sql, type Db } from '@lampstand/db';
import type { Claim } from './types.js';

/** A visit that failed: try again this much later (the error is kept on the enrolment). */
const ERROR_RETRY_MS = 5 * 60 * 1000;

/** Claims in groups of one church each, at most `size` a group. */
export function groupByChurch(claims: Claim[], size: number): Claim[][] {
  const byChurch = new Map<number, Claim[]>();
  for (const c of claims) {
    const list = byChurch.get(c.userId);
    if (list) list.push(c);
    else byChurch.set(c.userId, [c]);
  }
  const groups: Claim[][] = [];
  for (const list of byChurch.values())
    for (let i = 0; i < list.length; i += size) groups.push(list.slice(i, i + size));
  return groups;
}

/** Take up to `limit` due enrolments: a lease on each (`leaseSeconds` long) and one more attempt. */
export async function claimDue(db: Db, now: Date, limit: number, leaseSeconds: number) {
  // The journeys that run (their ids: a filter the planner can weigh, where a join with the journeys
  // had it read and sort every due enrolment to take `limit` of them); a test runs whatever the status.
  const active = (await db.selectFrom('journeys').select('id').where('status', '=', 'active').execute()).map(
    (j) => j.id,
  );
  // The due enrolments in the order of their index, `limit` of them; then those rows by their ids.
  const { rows } = await sql<{ id: number; leaseUntil: Date; journeyId: number; version: number; userId: number }>`
    with due as materialized (
      select x.id from journey_enrollments x
      where x.status = 'active' and x.next_run_at <= ${now}
        and (x.lease_until is null or x.lease_until < ${now})
        and (x.journey_id = any(${active}::int[]) or x.test)
      order by x.next_run_at, x.id
      limit ${limit}
      for update of x skip locked
    )
    update journey_enrollments e
    set lease_until = date_trunc('milliseconds', ${now}::timestamptz + make_interval(secs => ${leaseSeconds})),
        attempts = e.attempts + 1
    from due where e.id = due.id
    returning e.id, e.lease_until, e.journey_id, e.version, e.user_id`.execute(db);
  return rows.map((r) => ({ ...r, id: Number(r.id), leaseUntil: new Date(r.leaseUntil) }));
}

/** A visit that threw: keep the error, let go of the claim and come back later (pg-style backoff is overkill here). */
export async function noteFailure(db: Db, id: number, lease: Date, now: Date, err: unknown) {
  const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
  await db
    .updateTable('journeyEnrollments')
    .set({ lastError: message, leaseUntil: null, nextRunAt: new Date(now.getTime() + ERROR_RETRY_MS) })
    .where('id', '=', id)
    .where('leaseUntil', '=', lease)
    .execute();
}
