import type { Db } from '@lampstand/db';
import { claimDue, groupByChurch, noteFailure } from './runner/claims.js';
import { moveGroup } from './runner/group.js';
import { RunCache } from './runner/run-cache.js';
import { LostClaim, type Claim, type RunnerOptions, type RunResult } from './runner/types.js';

export type { RunnerOptions, RunResult } from './runner/types.js';

/**
 * The journey runner: workers claim due enrolments (`next_run_at <= now`) with the claim primitive
 * (background/claim.ts: FOR UPDATE SKIP LOCKED and a lease), then move each one through its steps until a wait (or the end), up to 250 of
 * one church in a transaction (a group that fails is tried again one enrolment per transaction, so
 * one that cannot move holds up no other). What the visits read (their people, who unsubscribed or
 * is suppressed) is read once for the group, and what they write (deliveries, step runs, tags, the
 * enrolments, events) is written at the end, one statement each. The transaction locks the
 * enrolment and checks the lease is still this worker's (a fence), records each step run under the unique (enrolment, step) key,
 * writes what the step does (a delivery of the one engine for an email, a text or a staff email;
 * a list membership; a tag; a task) and the step's event in the person's Activity, and moves the
 * enrolment on. A worker killed anywhere leaves either all of it or none of it, and the lease lets
 * another worker take the enrolment over: each step runs once.
 *
 * `now` is an input: tests drive a clock of their own.
 *
 * Its parts: claims.ts (claim, lease, failure), group.ts (one church's visits in a transaction and
 * their writes), visit.ts (one enrolment's steps until a wait), run-step.ts and steps/ (each kind of
 * step), conditions.ts (goals and branch conditions).
 */

/**
 * Claim due enrolments of active journeys (tests' too, whatever the journey's status), a batch at a
 * time, and move each; until nothing is due. Returns how many moved.
 */
export async function runDueEnrollments(db: Db, opts: RunnerOptions): Promise<RunResult> {
  const result: RunResult = { moved: 0, journeysToDeliver: new Set() };
  const cache = new RunCache(db);
  const batchSize = opts.batchSize ?? 1000;
  for (;;) {
    const claimed = await claimDue(db, opts.now, batchSize, opts.leaseSeconds ?? 120);
    if (claimed.length === 0) return result;
    const groups = groupByChurch(claimed, VISITS_PER_TRANSACTION);
    let next = 0;
    const workers = Array.from({ length: Math.min(opts.concurrency ?? 4, groups.length) }, async () => {
      while (next < groups.length) {
        const group = groups[next++]!;
        await opts.pacer?.take(group.length);
        const outcome = await moveGroup(db, cache, group, opts).catch(() => isolate(db, cache, group, opts));
        result.moved += outcome.moved;
        for (const id of outcome.journeys) result.journeysToDeliver.add(id);
        if (outcome.journeys.size > 0) await opts.onQueued?.(outcome.journeys);
      }
    });
    await Promise.all(workers);
    if (claimed.length < batchSize) return result;
  }
}

/**
 * Visits moved in one transaction (one church's): the commit and the writes (deliveries, step
 * runs, tags, enrolments, events: one statement each) are shared.
 */
const VISITS_PER_TRANSACTION = 250;

/**
 * A group whose transaction failed: each visit again in a transaction of its own, so one
 * enrolment that cannot move (its error kept, tried again later) holds up no other.
 */
async function isolate(db: Db, cache: RunCache, group: Claim[], opts: RunnerOptions) {
  const out = { moved: 0, journeys: new Set<number>() };
  for (const c of group) {
    try {
      const r = await moveGroup(db, cache, [c], opts);
      out.moved += r.moved;
      for (const id of r.journeys) out.journeys.add(id);
    } catch (err) {
      if (!(err instanceof LostClaim)) await noteFailure(db, c, opts.now, err);
    }
  }
  return out;
}
