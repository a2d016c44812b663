import { WEEKDAYS, type GroupRow } from '@lampstand/api/schemas/groups';
import { formatDate, formatPercent, formatWallTime } from '../../ui/format';

// How the groups' screens word a group's fields.

export const FREQUENCY_LABELS = {
  weekly: 'Weekly',
  every_other_week: 'Every other week',
  monthly: 'Monthly',
  by_arrangement: 'By arrangement',
} as const;

export const JOIN_MODE_LABELS = {
  open: 'Open: people join at once',
  request: 'Request to join: a leader approves',
  closed: 'Closed: not taking new members',
} as const;

export const JOIN_MODE_SHORT = { open: 'Open', request: 'Request to join', closed: 'Closed' } as const;

export const TREND_LABELS = { up: 'Going up', down: 'Going down', steady: 'Steady' } as const;
export const TREND_COLORS = { up: 'green', down: 'red', steady: 'gray' } as const;

const WEEK_OF_MONTH = ['', 'First', 'Second', 'Third', 'Fourth', 'Last'];

type Schedule = Pick<GroupRow, 'frequency' | 'weekday' | 'time' | 'weekOfMonth'>;

/** 'Tuesdays at 7:00 PM', 'Every other Sunday', 'Last Friday of the month', 'By arrangement'. */
export function scheduleWords(g: Schedule): string {
  if (g.frequency === 'by_arrangement' || g.weekday === null || g.weekday === undefined) return 'By arrangement';
  const day = WEEKDAYS[g.weekday] ?? '';
  const when =
    g.frequency === 'weekly'
      ? `${day}s`
      : g.frequency === 'every_other_week'
        ? `Every other ${day}`
        : `${WEEK_OF_MONTH[g.weekOfMonth ?? 1] ?? 'First'} ${day} of the month`;
  return g.time ? `${when} at ${formatWallTime(g.time)}` : when;
}

/** '82%' or 'No attendance yet'. */
export const rateWords = (rate: number | null | undefined) =>
  rate === null || rate === undefined ? 'No attendance yet' : formatPercent(rate * 100, 0);

export const nextMeetingWords = (d: string | null | undefined) => (d ? formatDate(d) : '—');
