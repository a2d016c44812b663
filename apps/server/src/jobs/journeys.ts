import type { Db } from '@lampstand/db';
import {
  processJourneyTriggers,
  runDueEnrollments,
  sweepJourneyDeliveries,
  sweepTaskNotices,
  type DeliveryDeps,
} from '@lampstand/api/server';
import type { JobLog } from '../logger.js';

export interface JourneyRunner {
  /** Look now (after an enrolment or a test), instead of at the next tick. */
  wake(): void;
  stop(): Promise<void>;
}

/** How often the journey loop looks for new events and due steps. */
const TICK_MS = 1000;
const SWEEP_MS = 30_000;
const DELIVER_AGAIN_MS = 2000;

/**
 * The journeys of a worker process: every second, read the events after each church's trigger
 * cursor (enrolling people), then claim due enrolments (SKIP LOCKED, with a lease) and move them;
 * journeys that queued messages get a 'journey-deliver' job, which sends them on the one engine.
 * Any number of worker processes run this loop side by side.
 */
export function startJourneyWorker(deps: DeliveryDeps & { db: Db }, log: JobLog): JourneyRunner {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let lastSweep = 0;
  const tick = async () => {
    const now = new Date();
    await processJourneyTriggers(deps.db, now);
    // A journey's delivery job is asked for as soon as a transaction queued its first messages (and
    // again at most every DELIVER_AGAIN_MS while the runner goes on), so sending overlaps moving.
    const asked = new Map<number, number>();
    const ask = async (journeyIds: Iterable<number>, force: boolean) => {
      for (const journeyId of journeyIds) {
        if (!force && Date.now() - (asked.get(journeyId) ?? -Infinity) < DELIVER_AGAIN_MS) continue;
        asked.set(journeyId, Date.now());
        await deps.jobs.send('journey-deliver', { journeyId });
      }
    };
    const result = await runDueEnrollments(deps.db, {
      now,
      leaseSeconds: deps.config.claimLeaseSeconds,
      unverifiedDailyRecipients: deps.config.unverifiedDailyRecipients,
      pacer: deps.config.pacer,
      onQueued: (journeyIds) => ask(journeyIds, false),
    });
    await ask(result.journeysToDeliver, true);
    if (Date.now() - lastSweep > SWEEP_MS) {
      lastSweep = Date.now();
      await sweepJourneyDeliveries(deps);
      await sweepTaskNotices(deps);
    }
  };
  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, ms);
  };
  const run = () => {
    if (running || stopped) return;
    running = tick()
      .catch((err: unknown) => log('journey runner failed (tried again next tick)', { err }))
      .finally(() => {
        running = null;
        schedule(TICK_MS);
      });
  };
  schedule(0);
  return {
    wake: () => schedule(0),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
