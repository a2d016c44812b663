import { sql, type DeliveriesTable, type DeliveryKind } from '@lampstand/db';
import type { Selectable } from 'kysely';
import type { Lease, LeasedTable } from '../background/claim.js';

/**
 * The deliveries table as the claim primitive (background/claim.ts) reads it: a claim is the time
 * it was taken (`claimed_at`, the stamp the engine's fence has always been), its try counted in
 * `attempts`, a retry's time in `next_attempt_at`.
 */
export const DELIVERY_LEASES: LeasedTable = {
  table: 'deliveries',
  lease: 'claimed_at',
  holds: 'since',
  attempts: 'attempts',
  retryAt: 'next_attempt_at',
};

export type Delivery = Selectable<DeliveriesTable>;

/** The lease a claimed delivery holds (its stamp and attempt, as claimed or last renewed). */
export const leaseOf = (d: Delivery): Lease => ({ id: d.id, lease: d.claimedAt!, attempt: d.attempts });

/** Which deliveries a run works on: a campaign's (the default), or a service plan's requests. */
export interface DeliveryGroup {
  kind: DeliveryKind;
  /** The column holding the id a run is given (snake_case). */
  column: 'campaign_id' | 'service_plan_id' | 'journey_id' | 'conversation_id' | 'statement_run_id' | 'user_id';
}

export const CAMPAIGN_GROUP: DeliveryGroup = { kind: 'campaign', column: 'campaign_id' };

/** `kind = … and <group column> = id`, for the deliveries of one group. */
export function groupWhere(group: DeliveryGroup | undefined, id: number) {
  const g = group ?? CAMPAIGN_GROUP;
  return sql<boolean>`kind = ${g.kind} and ${sql.ref(g.column)} = ${id}`;
}

/**
 * In the WHERE clause of the delivery writes (renew a claim, mark sent): commit without waiting
 * for the WAL flush. With hundreds of small commits a second, every worker otherwise queues on
 * WALSync (seen in pg_stat_activity during `pnpm bench:scale`). The write is visible to every other
 * worker at once; only a crash of PostgreSQL itself can lose the last fraction of a second of them,
 * and then those messages go out again: the engine is at-least-once anyway (see engine.test.ts).
 */
export const asyncCommit = sql<boolean>`set_config('synchronous_commit', 'off', true) is not null`;

/**
 * How long a group's deliveries must sit still, with work claimable, before a sweep asks for its
 * job again: 30 s, or the claim lease when shorter. A worker killed while its job ran leaves that
 * job active in the queue (not retried until it expires) and its claims held until their lease
 * ends; once they are free, a lease without movement is as sure a sign as 30 s. An extra job for a
 * group that was only slow costs one claim that finds nothing.
 */
export function stillSeconds(claimLeaseSeconds: number): number {
  return Math.min(30, claimLeaseSeconds);
}

/** Whether deliveries `d` of a group sat still for `stillSeconds` (in a `having`, over the group's rows). */
export const satStill = (claimLeaseSeconds: number) =>
  sql<boolean>`max(d.updated_at) < now() - make_interval(secs => ${stillSeconds(claimLeaseSeconds)})`;
