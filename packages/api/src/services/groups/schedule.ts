import type { GROUP_FREQUENCIES } from '../../schemas/groups.js';

// When a group meets: the next day of its schedule on or after a day, and whether a day is one of
// its meeting days. Days are 'YYYY-MM-DD' in the church's time zone; the arithmetic is in UTC.

export interface GroupSchedule {
  frequency: (typeof GROUP_FREQUENCIES)[number];
  weekday: number | null;
  weekOfMonth: number | null;
  startsOn: string | null;
}

const DAY = 86_400_000;
const toDate = (d: string) => new Date(`${d}T00:00:00Z`);
const iso = (d: Date) => d.toISOString().slice(0, 10);

/** The nth (1–4) or last (5) `weekday` of the month of `d`. */
function nthWeekdayOf(year: number, month: number, weekday: number, nth: number): Date {
  if (nth >= 5) {
    const last = new Date(Date.UTC(year, month + 1, 0));
    return new Date(last.getTime() - ((last.getUTCDay() - weekday + 7) % 7) * DAY);
  }
  const first = new Date(Date.UTC(year, month, 1));
  return new Date(first.getTime() + (((weekday - first.getUTCDay() + 7) % 7) + (nth - 1) * 7) * DAY);
}

/** Whether the group meets on `day` by its schedule (never for 'by arrangement'). */
export function meetsOn(s: GroupSchedule, day: string): boolean {
  if (s.frequency === 'by_arrangement' || s.weekday === null) return false;
  const d = toDate(day);
  if (d.getUTCDay() !== s.weekday) return false;
  if (s.frequency === 'weekly') return true;
  if (s.frequency === 'every_other_week') {
    if (!s.startsOn) return true;
    const weeks = Math.round((d.getTime() - toDate(s.startsOn).getTime()) / (7 * DAY));
    return weeks % 2 === 0;
  }
  return iso(nthWeekdayOf(d.getUTCFullYear(), d.getUTCMonth(), s.weekday, s.weekOfMonth ?? 1)) === day;
}

/** The first meeting day on or after `from`, or null (by arrangement, or no day set). */
export function nextMeeting(s: GroupSchedule, from: string): string | null {
  if (s.frequency === 'by_arrangement' || s.weekday === null) return null;
  const start = toDate(from);
  const first = new Date(start.getTime() + ((s.weekday - start.getUTCDay() + 7) % 7) * DAY);
  // Weekly and fortnightly repeat within 14 days; monthly within about 5 weeks of a month's start.
  for (let i = 0; i < 10; i++) {
    const day = iso(new Date(first.getTime() + i * 7 * DAY));
    if (meetsOn(s, day)) return day;
  }
  return null;
}
