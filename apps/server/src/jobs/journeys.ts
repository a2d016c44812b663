import type { Db } from '@lampstand/db';
import {
  processJourneyTriggers,
  stillSeconds,
  runDueEnrollments,
  sweepJourneyDeliveries,
  sweepTaskNotices,
  type BackgroundWork,
  type DeliveryDeps,
} from '@lampstand/api/server';

/** How often the journeys look for new events and due steps. */
const EVERY_MS = 1000;
const DELIVER_AGAIN_MS = 2000;

/**
 * The journeys of a worker process, as background work of the one runner: each round reads the
 * events after each church's trigger cursor (enrolling people), then claims due enrolments (the
 * claim primitive: SKIP LOCKED, with a lease) and moves them; journeys that queued messages get a
 * 'journey-deliver' job, which sends them on the one engine. Any number of worker processes run it
 * side by side.
 */
export function journeyWork(deps: DeliveryDeps & { db: Db }): BackgroundWork {
  let lastSweep = 0;
  // The journeys' deliveries are swept for work a dead worker left as often as a group must sit
  // still before the sweep takes it (the delivery engine's rule), so it is found about then.
  const sweepMs = stillSeconds(deps.config.claimLeaseSeconds) * 1000;
  return {
    name: 'journeys',
    everyMs: EVERY_MS,
    async run() {
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
      if (Date.now() - lastSweep > sweepMs) {
        lastSweep = Date.now();
        await sweepJourneyDeliveries(deps);
        await sweepTaskNotices(deps);
      }
    },
  };
}
