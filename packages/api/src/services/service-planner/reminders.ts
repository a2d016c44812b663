import { sql, type Db } from '@lampstand/db';
import { AppError } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import { recordEvent } from '../events/record.js';
import { zonedInstant } from '../journeys/time.js';
import { atServiceTime, memberTargets, planTime, queueNotice, sweepPlannerNotices } from './notices.js';
import { DEFAULT_REMINDER_DAYS } from './planner-settings.js';
import { closeExpiredOffers } from './offer-expiry.js';
import type { DeliveryDeps } from '../delivery/channels.js';

// Reminders before a plan, at the church's days before (default 3 and 1), to people
// who accepted or have not answered yet; through the one delivery engine, by each person's
// consent, within the church's daily limit, and exactly once per (assignment, days before).

const DAY = 86_400_000;

/** When a plan starts: its date at its first time (midnight when it has none) in the church's zone. */
export function planStartsAt(p: { date: string; startTime: string | null; serviceTimes: string[] }, timeZone: string) {
  const [y, m, d] = p.date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = (planTime(p) ?? '00:00').split(':').map(Number) as [number, number];
  return zonedInstant(timeZone, y, m, d, hh, mm);
}

/**
 * The reminder due now for a plan starting at `startsAt`: the fewest days before whose time has
 * come (someone scheduled late gets the nearest reminder only, not all of them at once); null
 * when none is due or the plan has started.
 */
export function dueReminder(startsAt: Date, days: number[], now: Date): number | null {
  if (startsAt.getTime() <= now.getTime()) return null;
  const due = days.filter((d) => startsAt.getTime() - d * DAY <= now.getTime());
  return due.length ? Math.min(...due) : null;
}

/**
 * Part of the planner's due job (every few minutes): queue the reminders whose time has come, one
 * transaction per assignment (its deliveries, the daily limit, then its event). A church over its
 * daily limit gets its reminders on a later run. Returns how many reminders were queued.
 */
export async function sendDueReminders(deps: { db: Db; jobs: JobQueue }, opts: { now: Date }): Promise<number> {
  const { db } = deps;
  const now = opts.now;
  // Plans within the longest reminder (7 days) and a day of time-zone slack, not yet over.
  const from = new Date(now.getTime() - DAY).toISOString().slice(0, 10);
  const to = new Date(now.getTime() + 9 * DAY).toISOString().slice(0, 10);
  const rows = await db
    .selectFrom('servicePlanAssignments as a')
    .innerJoin('servicePlans as p', 'p.id', 'a.servicePlanId')
    .innerJoin('teamMembers as m', 'm.id', 'a.teamMemberId')
    .leftJoin('teamPositions as pos', 'pos.id', 'a.positionId')
    .leftJoin('churchSettings as cs', 'cs.userId', 'a.userId')
    .leftJoin('servicePlannerSettings as ps', 'ps.userId', 'a.userId')
    .select([
      'a.id',
      'a.userId',
      'a.teamMemberId',
      'a.serviceTime',
      'm.name',
      'm.email',
      'm.contactId',
      'pos.name as positionName',
    ])
    .select(['p.id as planId', 'p.title as planTitle', 'p.date', 'p.startTime', 'p.serviceTimes'])
    .select([
      sql<string>`coalesce(cs.time_zone, 'UTC')`.as('timeZone'),
      sql<number[]>`coalesce(ps.reminder_days, ${sql.lit(`{${DEFAULT_REMINDER_DAYS.join(',')}}`)}::int[])`.as('days'),
      // The reminders this assignment has had already (any channel).
      sql<string[]>`array(select distinct d.planner_notice from deliveries d
        where d.kind = 'planner-notice' and d.assignment_id = a.id and d.planner_notice like 'reminder:%')`.as('sent'),
    ])
    .where('a.status', 'in', ['scheduled', 'confirmed'])
    .where('p.date', '>=', from)
    .where('p.date', '<=', to)
    .orderBy('a.id')
    .execute();

  const plans = new Set<number>();
  let queued = 0;
  for (const r of rows) {
    const days = dueReminder(planStartsAt(atServiceTime(r, r.serviceTime), r.timeZone), r.days, now);
    if (days === null || r.sent.includes(`reminder:${days}`)) continue;
    try {
      const channels = await db.transaction().execute(async (trx) => {
        // Still serving (not declined or removed meanwhile): lock the row while the reminder is queued.
        const still = await trx
          .selectFrom('servicePlanAssignments')
          .select('id')
          .where('id', '=', r.id)
          .where('status', 'in', ['scheduled', 'confirmed'])
          .forUpdate()
          .executeTakeFirst();
        if (!still) return [];
        const sent = await queueNotice(trx, r.userId, {
          planId: r.planId,
          assignmentId: r.id,
          notice: `reminder:${days}`,
          targets: await memberTargets(trx, r.userId, r.teamMemberId),
        });
        if (sent.length)
          await recordEvent(trx, r.userId, {
            type: 'plan.reminder_sent',
            contactId: r.contactId,
            payload: {
              person: { name: r.name, email: r.email },
              plan: { id: r.planId, name: r.planTitle },
              position: r.positionName ?? '',
              assignmentId: r.id,
              daysBefore: days,
              channels: sent,
            },
          });
        return sent;
      });
      if (channels.length) {
        queued++;
        plans.add(r.planId);
      }
    } catch (err) {
      // Over the church's daily limit: nothing was written; a later run tries again.
      if (err instanceof AppError && err.code === 'TOO_MANY_REQUESTS') continue;
      throw err;
    }
  }
  for (const planId of plans) await deps.jobs.send('planner-notice-deliver', { planId });
  return queued;
}

/**
 * The 'planner-due' job (every 5 minutes, on the clock it is given): reminders whose time has
 * come, offers nobody took in time, and notices a dead worker left.
 */
export async function runPlannerDue(deps: DeliveryDeps, opts: { now: Date }) {
  const reminders = await sendDueReminders(deps, opts);
  const unfilled = await closeExpiredOffers(deps, opts);
  await sweepPlannerNotices(deps);
  return { reminders, unfilled };
}
