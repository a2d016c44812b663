import type { ASSIGNMENT_STATUSES } from '../schemas/service-planner/options.js';
import type { MatrixStatus } from '../schemas/service-planner/matrix.js';

// The planner's times (an item's start from the plan's start and the durations before it) and an
// assignment's status as the matrix reads it: the planner's screens and the server share them.

export const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** 'HH:MM' to minutes after midnight. */
export function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
}

/** Minutes after midnight to 'HH:MM' (past midnight wraps round). */
export function hhmmOf(minutes: number): string {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

export interface ItemTimes {
  /** Each item's start, 'HH:MM' (null when the plan has no start time). */
  starts: (string | null)[];
  /** Sum of the durations, in minutes. */
  totalMinutes: number;
  /** When the last item ends ('HH:MM'), or null without a start time. */
  endsAt: string | null;
  /** Planned length from start to end time, or null when either is missing. */
  plannedMinutes: number | null;
  /** Minutes beyond the planned end (0 when it fits). */
  overBy: number;
}

/** Start times of the items in order from the plan's start, and the total against the planned end. */
export function computeItemTimes(
  plan: { startTime: string | null; endTime: string | null },
  items: { duration: number }[],
): ItemTimes {
  const start = plan.startTime && HHMM.test(plan.startTime) ? minutesOf(plan.startTime) : null;
  let t = 0;
  const starts = items.map((item) => {
    const at = start === null ? null : hhmmOf(start + t);
    t += item.duration;
    return at;
  });
  const planned = start !== null && plan.endTime && HHMM.test(plan.endTime) ? minutesOf(plan.endTime) - start : null;
  return {
    starts,
    totalMinutes: t,
    endsAt: start === null ? null : hhmmOf(start + t),
    plannedMinutes: planned,
    overBy: planned === null ? 0 : Math.max(0, t - planned),
  };
}

export const matrixStatusOf = (status: (typeof ASSIGNMENT_STATUSES)[number]): MatrixStatus =>
  status === 'confirmed' ? 'accepted' : status === 'declined' ? 'declined' : 'pending';
