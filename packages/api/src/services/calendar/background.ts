import { drainLocked } from '../background/locked.js';
import { nowOf, wakeRegistrationMessages, type CalendarDeps } from './deps.js';
import { settleRefunds } from './refunds.js';
import { endRegistrations, seatsFreed, type RegRow } from './waitlist.js';

// The calendar's background work ('calendar-due', every minute and when asked): seat holds that ran
// out without a payment, and waitlist offers nobody claimed in time, end (their seats given back
// and offered to the next people waiting, in the same transaction); then the refunds due. Rows are
// taken with the claim primitive's locked half (FOR UPDATE SKIP LOCKED), so any number of workers
// share the work. `now` is the caller's clock (tests drive one).

const COLUMNS = [
  'id',
  'userId',
  'eventId',
  'timeId',
  'status',
  'seatsHeld',
  'name',
  'email',
  'contactId',
  'totalCents',
  'discountCodeId',
  'giftId',
] as const;

/** Ends the registrations in `status` whose time (`column`) ran out; offers their seats on. */
async function expire(
  deps: CalendarDeps,
  status: 'held' | 'offered',
  column: 'holdExpiresAt' | 'offerExpiresAt',
  now: Date,
): Promise<{ ended: number; offered: number; churches: Set<number> }> {
  const outs = await drainLocked(deps.db, {
    due: (trx) =>
      trx
        .selectFrom('calendarRegistrations')
        .select(COLUMNS)
        .where('status', '=', status)
        .where(column, '<=', now)
        .orderBy(column)
        .orderBy('id'),
    limit: 50,
    work: async (trx, rows: RegRow[]) => {
      await endRegistrations(trx, rows, 'expired', { now, paid: false });
      const offered = await seatsFreed(
        trx,
        rows.map((r) => r.timeId),
        now,
      );
      return { ended: rows.length, offered, churches: rows.map((r) => r.userId) };
    },
  });
  return {
    ended: outs.reduce((s, o) => s + o.ended, 0),
    offered: outs.reduce((s, o) => s + o.offered, 0),
    churches: new Set(outs.flatMap((o) => o.churches)),
  };
}

export interface CalendarDueResult {
  holdsExpired: number;
  offersExpired: number;
  offered: number;
  refunded: number;
  refundsFailed: number;
}

/** One round of the calendar's background work. */
export async function runCalendarDue(deps: CalendarDeps, o: { now?: Date } = {}): Promise<CalendarDueResult> {
  const now = o.now ?? nowOf(deps);
  const holds = await expire(deps, 'held', 'holdExpiresAt', now);
  const offers = await expire(deps, 'offered', 'offerExpiresAt', now);
  const refunds = await settleRefunds(deps, { now });
  for (const church of new Set([...holds.churches, ...offers.churches])) await wakeRegistrationMessages(deps, church);
  return {
    holdsExpired: holds.ended,
    offersExpired: offers.ended,
    offered: holds.offered + offers.offered,
    refunded: refunds.refunded,
    refundsFailed: refunds.failed,
  };
}
