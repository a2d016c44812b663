import dayjs from 'dayjs';
import * as shared from '@lampstand/api/shared/format';
import { toZonedWallTime } from '../lib/time-zone';
import { churchLocale } from '../lib/locale-state';

// Dates, times, numbers and money on the staff screens, in the church's locale (its country's:
// 'Dec 7, 2026' in the US, '7 Dec 2026' in Australia), through the one shared formatter the
// server's emails, texts, PDFs and portal use. The signed-in shell sets the locale from the church's
// settings (ChurchLocale) before any screen renders; until then, and for visitors, the US's.

export { churchFirstDayOfWeek, churchLocale, setChurchLocale } from '../lib/locale-state';

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

type Value = string | Date | null | undefined;

/** 'Jan 5, 2025' in the US (the spec's 'MMM d, yyyy'), '5 Jan 2025' in Australia; in `zone` when given. */
export function formatDate(value: Value, zone?: string): string {
  return shared.formatDate(value, { locale: churchLocale(), timeZone: zone });
}

/** '3:05 PM' in the US (the spec's 'h:mm a'), '3:05 pm' in Australia, '15:05' in the UK. */
export function formatTime(value: Value, zone?: string): string {
  return shared.formatTime(value, { locale: churchLocale(), timeZone: zone });
}

/** 'Jan 5, 2025, 3:05 PM' in the church's locale, in `zone` when given. */
export function formatDateTime(value: Value, zone?: string): string {
  return shared.formatDateTime(value, { locale: churchLocale(), timeZone: zone });
}

/** 'Monday, December 7, 2026'; 'Monday 7 December 2026' in Australia. */
export function formatLongDate(value: Value): string {
  return shared.formatLongDate(value, { locale: churchLocale() });
}

/** 'Sun, Dec 7'; 'Sun 7 Dec' in Australia. */
export function formatShortDay(value: Value): string {
  return shared.formatShortDay(value, { locale: churchLocale() });
}

/** 'Sun, Jan 5, 2025'; 'Sun 5 Jan 2025' in Australia. */
export function formatDayDate(value: Value): string {
  return shared.formatDayDate(value, { locale: churchLocale() });
}

/** A birthday without its year: 'January 5' in the US, '5 January' in Australia. */
export function formatBirthday(value: Value): string {
  return shared.formatBirthday(value, { locale: churchLocale() });
}

/** A wall-clock 'HH:MM' as the church writes times: '9:00 AM', '09:00'. */
export function formatWallTime(hhmm: string | null | undefined): string {
  return shared.formatWallTime(hhmm, { locale: churchLocale() });
}

/** 'Dec 2026' from a date or 'YYYY-MM-DD'. */
export function formatMonth(value: Value): string {
  return shared.formatMonth(value, { locale: churchLocale() });
}

export function formatNumber(n: number): string {
  return shared.formatNumber(n, { locale: churchLocale() });
}

export function formatPercent(n: number, digits = 1): string {
  return `${(Number.isFinite(n) ? n : 0).toFixed(digits)}%`;
}

/** Dollars with cents: '$1,234.50'. */
export function formatUsd(n: number): string {
  return shared.formatMoney(Math.round(n * 100), { locale: churchLocale() });
}
