import type { Db } from '@lampstand/db';
import type { JobQueue } from '../../jobs.js';
import { recordEvents } from '../events/record.js';
import { leaderTarget, queueNotice } from './notices.js';
import { lockedAssignment, memberPerson, slotRef } from './substitutes.js';

/** Cover and swap offers that nobody took in the church's time. */

type Deps = { db: Db; jobs: JobQueue };

/**
 * Part of the planner's due job: open offers whose time ran out are closed as unfilled and the
 * leader is told (each offer in its own transaction, locked, so a late Accept and the timeout do
 * not both happen). Returns how many were closed.
 */
export async function closeExpiredOffers(deps: Deps, opts: { now: Date }): Promise<number> {
  const due = await deps.db
    .selectFrom('substituteOffers')
    .select('id')
    .where('status', '=', 'open')
    .where('expiresAt', '<=', opts.now)
    .orderBy('id')
    .execute();
  const plans = new Set<number>();
  let closed = 0;
  for (const { id } of due) {
    const planId = await deps.db.transaction().execute(async (trx) => {
      const offer = await trx
        .selectFrom('substituteOffers')
        .select(['id', 'userId', 'assignmentId'])
        .where('id', '=', id)
        .where('status', '=', 'open')
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!offer) return null;
      closed++;
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
    });
    if (planId) plans.add(planId);
  }
  for (const planId of plans) await deps.jobs.send('planner-notice-deliver', { planId });
  return closed;
}
