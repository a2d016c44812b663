import dayjs from 'dayjs';
import { toZonedWallTime } from '../lib/time-zone';

/** The value as dayjs, read in `zone` when given (otherwise in the browser's zone). */
function inZone(value: string | Date, zone?: string) {
  const d = dayjs(value);
  return zone && d.isValid() ? dayjs(toZonedWallTime(d.toDate(), zone)) : d;
}

/** The value in a dayjs pattern ('MMM', 'D'), in `zone` when given; '' when it is not a date. */
export function formatIn(value: string | Date | null | undefined, pattern: string, zone?: string): string {
  if (!value) return '';
  const d = inZone(value, zone);
  return d.isValid() ? d.format(pattern) : '';
}

/** 'Jan 5, 2025' (the spec's 'MMM d, yyyy'), in `zone` when given. */
export function formatDate(value: string | Date | null | undefined, zone?: string): string {
  return formatIn(value, 'MMM D, YYYY', zone);
}

/** '3:05 PM' (the spec's 'h:mm a'), in `zone` when given. */
export function formatTime(value: string | Date | null | undefined, zone?: string): string {
  return formatIn(value, 'h:mm A', zone);
}

const numberFormat = new Intl.NumberFormat('en-US');
export function formatNumber(n: number): string {
  return numberFormat.format(n);
}

export function formatPercent(n: number, digits = 1): string {
  return `${(Number.isFinite(n) ? n : 0).toFixed(digits)}%`;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
export function formatUsd(n: number): string {
  return usd.format(n);
}
