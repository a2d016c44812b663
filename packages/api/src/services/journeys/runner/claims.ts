import { sql, type Db } from '@lampstand/db';
import { claimLeased, everyMs, failLeased, type LeasedTable } from '../../background/claim.js';
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

/** Journey enrolments as the claim primitive reads them: a lease's end, the visit's try, when it runs next. */
const ENROLMENT_LEASES: LeasedTable = {
  table: 'journey_enrollments',
  lease: 'lease_until',
  holds: 'until',
  attempts: 'attempts',
  retryAt: 'next_run_at',
};

/** Take up to `limit` due enrolments: a lease on each (`leaseSeconds` long) and one more attempt. */
export async function claimDue(db: Db, now: Date, limit: number, leaseSeconds: number): Promise<Claim[]> {
  // The journeys that run (their ids: a filter the planner can weigh, where a join with the journeys
  // had it read and sort every due enrolment to take `limit` of them); a test runs whatever the status.
  const active = (await db.selectFrom('journeys').select('id').where('status', '=', 'active').execute()).map(
    (j) => j.id,
  );
  // The due enrolments in the order of their index, `limit` of them.
  const claimed = await claimLeased<{ journeyId: number; version: number; userId: number }>(db, ENROLMENT_LEASES, {
    due: sql`x.status = 'active' and x.next_run_at <= ${now} and (x.journey_id = any(${active}::int[]) or x.test)`,
    order: sql`x.next_run_at, x.id`,
    limit,
    leaseSeconds,
    now,
  });
  return claimed.map(({ row, lease }) => ({
    id: lease.id,
    journeyId: row.journeyId,
    version: row.version,
    userId: row.userId,
    lease,
  }));
}

/** A visit that threw: keep the error, let go of the claim and come back later (it never gives up). */
export async function noteFailure(db: Db, claim: Claim, now: Date, err: unknown) {
  const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
  await failLeased(db, ENROLMENT_LEASES, claim.lease, {
    backoff: everyMs(ERROR_RETRY_MS),
    now,
    also: sql`last_error = ${message}`,
  });
}
