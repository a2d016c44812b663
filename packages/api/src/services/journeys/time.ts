/**
 * Wall-clock time in a church's time zone, for the journey runner: waits until a weekday and time,
 * texts' quiet hours (never 21:00–8:00), tasks' due dates and the 9:00 birthday trigger. Every
 * function takes the instant it reasons about, so tests drive a clock of their own.
 */

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 0 = Sunday. */
  weekday: number;
}

const WEEKDAY: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    formats.set(timeZone, f);
  }
  return f;
}

/** The date and time `at` shows on a clock in `timeZone`. */
export function localParts(at: Date, timeZone: string): LocalParts {
  const parts = Object.fromEntries(
    formatIn(timeZone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    weekday: WEEKDAY[parts.weekday!] ?? 0,
  };
}

/** 'YYYY-MM-DD' of `at` in `timeZone`, `addDays` later. */
export function localDate(at: Date, timeZone: string, addDays = 0): string {
  const p = localParts(at, timeZone);
  const d = new Date(Date.UTC(p.year, p.month - 1, p.day + addDays));
  return d.toISOString().slice(0, 10);
}

/** The instant a clock in `timeZone` shows year-month-day hour:minute (month 1–12; days may overflow). */
export function zonedInstant(timeZone: string, y: number, month: number, day: number, hour: number, minute: number) {
  const wall = Date.UTC(y, month - 1, day, hour, minute);
  let guess = wall;
  // Two rounds settle the offset, also across a daylight-saving change.
  for (let i = 0; i < 2; i++) {
    const p = localParts(new Date(guess), timeZone);
    const shown = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
    guess += wall - shown;
  }
  return new Date(guess);
}

/** The next `weekday` (0 = Sunday) at 'HH:MM' in `timeZone` strictly after `now`. */
export function nextWeekdayAt(now: Date, timeZone: string, weekday: number, time: string): Date {
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const p = localParts(now, timeZone);
  for (let add = 0; add <= 7; add++) {
    if ((p.weekday + add) % 7 !== weekday) continue;
    const at = zonedInstant(timeZone, p.year, p.month, p.day + add, hh, mm);
    if (at.getTime() > now.getTime()) return at;
  }
  return zonedInstant(timeZone, p.year, p.month, p.day + 7, hh, mm);
}

export const QUIET_FROM_HOUR = 21;
export const QUIET_UNTIL_HOUR = 8;

/** Inside texts' quiet hours (21:00–8:00 in `timeZone`): when they end; otherwise null. */
export function quietHoursEnd(now: Date, timeZone: string): Date | null {
  const p = localParts(now, timeZone);
  if (p.hour >= QUIET_UNTIL_HOUR && p.hour < QUIET_FROM_HOUR) return null;
  const day = p.hour >= QUIET_FROM_HOUR ? p.day + 1 : p.day;
  return zonedInstant(timeZone, p.year, p.month, day, QUIET_UNTIL_HOUR, 0);
}
