import { sql, type Db } from '@lampstand/db';
import type { JobName, JobPayloads, JobQueue } from '../../jobs.js';
import { leaseFree } from '../background/claim.js';
import type { DeliveryConfig } from './config.js';
import { runDeliveries, type ChannelDriver, type RunResult } from './engine.js';
import { DELIVERY_LEASES, satStill, type DeliveryGroup } from './leases.js';

/**
 * For a sweep: the groups of `group.kind` (plans, conversations) with deliveries a dead worker left
 * (or a lost job). Without `force`, only when work is claimable now yet nothing moved for 30 s (or
 * the claim lease, when shorter: `stillSeconds`).
 */
export async function stalledGroups(
  db: Db,
  group: DeliveryGroup,
  config: Pick<DeliveryConfig, 'claimLeaseSeconds'>,
  opts: { force?: boolean } = {},
): Promise<number[]> {
  const leaseRanOut = leaseFree(DELIVERY_LEASES, 'd', { leaseSeconds: config.claimLeaseSeconds });
  const { rows } = await sql<{ groupId: number }>`
    select ${sql.ref(group.column)} as group_id from deliveries d
    where d.kind = ${group.kind} and d.status in ('pending', 'sending') and ${sql.ref(group.column)} is not null
    group by ${sql.ref(group.column)}
    having ${
      opts.force
        ? sql`true`
        : sql`count(*) filter (where (d.status = 'pending' and coalesce(d.next_attempt_at, now()) <= now())
                          or (d.status = 'sending' and ${leaseRanOut})) > 0
           and ${satStill(config.claimLeaseSeconds)}`
    }`.execute(db);
  return rows.map((r) => r.groupId);
}

/** The job that sends a group's deliveries: its name, and its payload for a group id. */
export interface DeliverJob<N extends JobName> {
  name: N;
  payload: (groupId: number) => JobPayloads[N];
}

interface GroupDeps {
  db: Db;
  jobs: Pick<JobQueue, 'send'>;
  config: DeliveryConfig;
}

/**
 * A deliver job's work, for every kind but campaigns: each driver (one per channel) sends the
 * group's pending deliveries, and a run left with retries asks for the job again at its retry time.
 */
export async function deliverGroup<T, N extends JobName>(
  deps: GroupDeps,
  drivers: readonly ChannelDriver<T>[],
  groupId: number,
  job: DeliverJob<N>,
): Promise<RunResult[]> {
  const results: RunResult[] = [];
  for (const driver of drivers) {
    const result = await runDeliveries(deps.db, driver, groupId, deps.config);
    results.push(result);
    if (!result.finished && result.retryAt)
      await deps.jobs.send(job.name, job.payload(groupId), { startAfter: result.retryAt });
  }
  return results;
}

/**
 * The sweep of a kind: groups with work a dead worker (or a lost job) left, their deliver job asked
 * for again (see `stalledGroups`). The group ids.
 */
export async function requeueStalled<N extends JobName>(
  deps: GroupDeps,
  group: DeliveryGroup,
  job: DeliverJob<N>,
  opts: { force?: boolean } = {},
): Promise<number[]> {
  const stalled = await stalledGroups(deps.db, group, deps.config, opts);
  for (const groupId of stalled) await deps.jobs.send(job.name, job.payload(groupId));
  return stalled;
}
