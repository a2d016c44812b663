import { isTimeZone } from '@lampstand/api/shared/time-zone';
import { trpc } from './trpc';

// A church enters and reads campaign times in its own time zone; the server stores UTC instants.
// Wall times are the 'YYYY-MM-DD HH:mm:ss' strings @mantine/dates works with.

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsIn(zone: string, date: Date): Record<string, number> {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  const out: Record<string, number> = {};
  for (const p of f.formatToParts(date)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** The wall time in `zone` at an instant: '2026-12-24 18:00:00'. */
export function toZonedWallTime(date: Date, zone: string): string {
  const p = partsIn(zone, date);
  return `${pad(p.year!, 4)}-${pad(p.month!)}-${pad(p.day!)} ${pad(p.hour!)}:${pad(p.minute!)}:${pad(p.second!)}`;
}

/** The date in `zone` at an instant, 'YYYY-MM-DD': a church's today, whatever the browser's zone. */
export function todayIn(zone: string, now = new Date()): string {
  return toZonedWallTime(now, zone).slice(0, 10);
}

/** Milliseconds `zone` is ahead of UTC at an instant. */
function offsetMs(zone: string, date: Date): number {
  const p = partsIn(zone, date);
  const asUtc = Date.UTC(p.year!, p.month! - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(date.getTime() / 1000) * 1000;
}

function wallAsUtcMs(wall: string): number {
  const [d = '', t = '00:00:00'] = wall.split(' ');
  const [y = 1970, m = 1, day = 1] = d.split('-').map(Number);
  const [h = 0, mi = 0, s = 0] = t.split(':').map(Number);
  return Date.UTC(y, m - 1, day, h, mi, s);
}

/** The instant a wall time in `zone` names (a time skipped by a clock change moves forward). */
export function fromZonedWallTime(wall: string, zone: string): Date {
  const guess = wallAsUtcMs(wall);
  const first = guess - offsetMs(zone, new Date(guess));
  const second = guess - offsetMs(zone, new Date(first));
  return new Date(Math.max(first, second));
}

/** The next whole hour in `zone` after `now` (9:10 → 10:00), as an instant. */
export function nextWholeHour(zone: string, now = new Date()): Date {
  const wall = wallAsUtcMs(toZonedWallTime(now, zone));
  const next = new Date(Math.floor(wall / 3_600_000) * 3_600_000 + 3_600_000);
  return fromZonedWallTime(next.toISOString().slice(0, 19).replace('T', ' '), zone);
}

/** 'America/Chicago (CST)'; 'UTC'. */
export function timeZoneLabel(zone: string, at = new Date()): string {
  if (zone === 'UTC') return 'UTC';
  const short = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  return short ? `${zone.replace(/_/g, ' ')} (${short})` : zone.replace(/_/g, ' ');
}

/** The browser's time zone when it is a valid IANA name (sent at registration). */
export function browserTimeZone(): string | undefined {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isTimeZone(zone) ? zone : undefined;
}

const useChurchSettings = () => trpc.settings.get.useQuery(undefined, { staleTime: 5 * 60_000 });

/** The church's time zone from its settings (UTC until they have loaded). */
export function useChurchTimeZone(): string {
  return useChurchSettings().data?.timeZone ?? 'UTC';
}

/** True once the settings have loaded and say UTC: the zone every church starts with unless it chose one. */
export function useTimeZoneIsUtc(): boolean {
  return useChurchSettings().data?.timeZone === 'UTC';
}
