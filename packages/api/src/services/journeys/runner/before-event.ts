import type { Db } from '@lampstand/db';
import type { JourneyWait } from '../../../schemas/journeys.js';
import { waitMinutes } from '../../../shared/journey-steps.js';

/** The trigger key of an enrolment an event trigger made: the registration it is about. */
export const registrationKey = (registrationId: number) => `registration:${registrationId}`;

/**
 * When a 'before the event' wait ends: the start of the time the enrolment's registration is for,
 * less the wait. An enrolment without a registration (another trigger), or a test, waits no time.
 */
export async function beforeEventEnd(
  trx: Db,
  e: { triggerKey?: string | null; test: boolean; userId: number },
  w: Extract<JourneyWait, { mode: 'before_event' }>,
  now: Date,
): Promise<Date> {
  const m = /^registration:(\d{1,10})$/.exec(e.triggerKey ?? '');
  if (!m || e.test) return now;
  const t = await trx
    .selectFrom('calendarRegistrations as r')
    .innerJoin('calendarEventTimes as t', 't.id', 'r.timeId')
    .select('t.startsAt')
    .where('r.id', '=', Number(m[1]))
    .where('r.userId', '=', e.userId)
    .executeTakeFirst();
  return t ? new Date(t.startsAt.getTime() - waitMinutes(w) * 60_000) : now;
}
