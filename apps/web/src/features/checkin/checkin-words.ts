import { WEEKDAYS } from '@lampstand/api/shared/checkin-words';
import { formatWallTime } from '../../ui/format';

/** Words the check-in screens share: a service's time, a room's ages or grades. */

export function serviceLabel(s: { name: string; weekday: number; startsAt: string }): string {
  return `${s.name} (${WEEKDAYS[s.weekday]} ${formatWallTime(s.startsAt)})`;
}

export function gradeLabel(g: number): string {
  if (g === -1) return 'Pre-K';
  if (g === 0) return 'K';
  return String(g);
}

/** 'Ages 0–2', 'Grades K–2', 'Any age'. */
export function roomRange(r: {
  ageMinMonths: number | null;
  ageMaxMonths: number | null;
  gradeMin: number | null;
  gradeMax: number | null;
}): string {
  if (r.gradeMin !== null || r.gradeMax !== null)
    return `Grades ${r.gradeMin === null ? 'any' : gradeLabel(r.gradeMin)}–${r.gradeMax === null ? 'any' : gradeLabel(r.gradeMax)}`;
  if (r.ageMinMonths !== null || r.ageMaxMonths !== null) {
    const from = r.ageMinMonths === null ? 0 : Math.floor(r.ageMinMonths / 12);
    const to = r.ageMaxMonths === null ? null : Math.floor(r.ageMaxMonths / 12);
    return to === null ? `Ages ${from} and up` : `Ages ${from}–${to}`;
  }
  return 'Any age';
}

export const GRADE_OPTIONS = Array.from({ length: 14 }, (_, i) => i - 1).map((g) => ({
  value: String(g),
  label: g === -1 ? 'Pre-K' : g === 0 ? 'Kindergarten' : `Grade ${g}`,
}));

export const KIND_LABELS = {
  self: 'Self check-in (parents)',
  manned: 'Volunteer desk',
  room: 'Room (teacher’s roster and pickup)',
} as const;
