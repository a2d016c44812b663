import type { RouterOutputs } from '@lampstand/api';
import type { RegistrationStatus } from '@lampstand/api/schemas/calendar-events';
import { formatDateTime, formatNumber, formatUsd } from '../../ui/format';

export type EventDetail = RouterOutputs['calendar']['get'];
export type EventSummary = RouterOutputs['calendar']['list'][number];
export type Registration = RouterOutputs['calendar']['registrations']['registrations'][number];

export const STATUS_LABELS = { draft: 'Draft', published: 'Published', cancelled: 'Cancelled' } as const;
export const STATUS_COLORS = { draft: 'gray', published: 'green', cancelled: 'red' } as const;

export const VISIBILITY_LABELS = {
  public: 'Public: anyone can find and register',
  members: 'Members only: through the members’ portal',
  link: 'Link only: not listed, anyone with the link',
} as const;

export const QUESTION_KIND_LABELS = {
  short_text: 'Short text',
  long_text: 'Long text',
  choice: 'Choice (pick one)',
  multiple_choice: 'Multiple choice',
  yes_no: 'Yes / no',
  date: 'Date',
  number: 'Number',
} as const;

export const REGISTRATION_LABELS: Record<RegistrationStatus, string> = {
  held: 'Paying',
  pending_approval: 'Waiting for approval',
  confirmed: 'Confirmed',
  waitlisted: 'Waitlisted',
  offered: 'Offered a seat',
  cancelled: 'Cancelled',
  expired: 'Expired',
  declined: 'Declined',
};
export const REGISTRATION_COLORS: Record<RegistrationStatus, string> = {
  held: 'yellow',
  pending_approval: 'yellow',
  confirmed: 'green',
  waitlisted: 'blue',
  offered: 'blue',
  cancelled: 'gray',
  expired: 'gray',
  declined: 'gray',
};

/** Money from whole cents, with the currency ('$15.00'). */
export const money = (cents: number) => formatUsd(cents / 100);

/** Seats taken of the event's times: '3 of 20' (or '3' when a time has no limit). */
export function seatsWords(times: { seatsTaken: number; capacity: number | null }[]): string {
  const taken = times.reduce((n, t) => n + t.seatsTaken, 0);
  const unlimited = times.some((t) => t.capacity === null);
  const capacity = times.reduce((n, t) => n + (t.capacity ?? 0), 0);
  return unlimited ? `${formatNumber(taken)} taken` : `${formatNumber(taken)} of ${formatNumber(capacity)}`;
}

/** The first time of an event ('Dec 24, 2026 6:00 PM'), and how many more a series has. */
export function whenWords(times: { startsAt: string }[], zone?: string): string {
  const sorted = [...times].sort((a, b) => a.startsAt.localeCompare(b.startsAt));
  const first = sorted[0];
  if (!first) return '—';
  const more = sorted.length - 1;
  return `${formatDateTime(first.startsAt, zone)}${more > 0 ? ` (+${more} more)` : ''}`;
}

/** An answer as the list shows it. */
export function answerWords(value: string | number | boolean | string[]): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}
