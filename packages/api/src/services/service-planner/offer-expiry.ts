import type { Db } from '@lampstand/db';
import type { JobQueue } from '../../jobs.js';
import { lockedRows } from '../background/locked.js';
import { recordEvents } from '../events/record.js';
import { leaderTarget, queueNotice } from './notices.js';
import { lockedAssignment, memberPerson, slotRef } from './substitutes.js';

/** Cover and swap offers that nobody took in the church's time. */

type Deps = { db: Db; jobs: JobQueue };

/**
 * Part of the planner's due job: open offers whose time ran out are closed as unfilled and the
 * leader is told (each offer claimed for its own transaction, so a late Accept, which locks the
 * offer, and the timeout do not both happen). Returns how many were closed.
 */
export async function closeExpiredOffers(deps: Deps, opts: { now: Date }): Promise<number> {
  const planIds: (number | null)[] = [];
  const offers = lockedRows(deps.db, {
    due: (trx) =>
      trx
        .selectFrom('substituteOffers')
        .select(['id', 'userId', 'assignmentId'])
        .where('status', '=', 'open')
        .where('expiresAt', '<=', opts.now)
        .orderBy('id'),
    work: async (trx, offer) => {
      const a = await lockedAssignment(trx, { id: offer.assignmentId, tenantId: offer.userId });
      await trx
        .updateTable('substituteOffers')
        .set({ status: 'unfilled', updatedAt: opts.now })
        .where('id', '=', offer.id)
        .execute();
      if (!a) return null;
      await queueNotice(trx, offer.userId, {
        planId: a.planId,
        assignmentId: a.id,
        offerId: offer.id,
        notice: 'leader-unfilled',
        targets: [await leaderTarget(trx, offer.userId)],
      });
      await recordEvents(trx, offer.userId, [
        {
          type: 'plan.substitute_unfilled',
          contactId: a.contactId,
          payload: { person: memberPerson(a), ...slotRef(a), offerId: offer.id, assignmentId: a.id },
        },
      ]);
      return a.planId;
    },
  });
  for await (const { out } of offers) planIds.push(out);
  for (const planId of new Set(planIds)) if (planId) await deps.jobs.send('planner-notice-deliver', { planId });
  return planIds.length;
}
