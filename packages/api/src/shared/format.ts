import { ISO_DATE } from './dates.js';

// Dates, times and money as a church reads them, in its locale ('en-US': 'Dec 7, 2026', '9:00 AM';
// 'en-AU': '7 Dec 2026', '9:00 am'; 'en-GB': '21:00'). One module for the staff screens (through
// the web app's format.ts), emails, texts, PDFs and the portal. A moment (a timestamp) is shown
// in the church's time zone; a calendar date ('2026-12-07') and a wall time ('09:00') are shown
// as written, never shifted by a zone.

export interface Locale {
  /** 'en-US', from `churchLocale(country)`; the US when left out. */
  locale?: string;
  /** IANA zone a moment is shown in; a calendar date ignores it. */
  timeZone?: string;
}

type Value = string | Date | null | undefined;

const US = 'en-US';
/** Some runtimes put a narrow no-break space before 'PM': written as a plain space, as people type it. */
const plain = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ');
const cache = new Map<string, Intl.DateTimeFormat>();
function dtf(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? US}|${JSON.stringify(options)}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale ?? US, options);
    cache.set(key, f);
  }
  return f;
}

/** The Date to format and the zone to format it in: a calendar date is noon UTC read in UTC. */
function moment(value: Value, timeZone: string | undefined): { date: Date; timeZone: string | undefined } | null {
  if (!value) return null;
  if (typeof value === 'string' && ISO_DATE.test(value)) {
    return { date: new Date(`${value}T12:00:00Z`), timeZone: 'UTC' };
  }
  const date = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? null : { date, timeZone };
}

function format(value: Value, o: Locale, options: Intl.DateTimeFormatOptions): string {
  const m = moment(value, o.timeZone);
  if (!m) return '';
  try {
    return plain(dtf(o.locale, { ...options, timeZone: m.timeZone }).format(m.date));
  } catch {
    // An unknown zone: the runtime's own.
    return plain(dtf(o.locale, options).format(m.date));
  }
}

const DATE: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', year: 'numeric' };
const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };

/** 'Dec 7, 2026' (the spec's 'MMM d, yyyy' in the US), '7 Dec 2026' in Australia. */
export function formatDate(value: Value, o: Locale = {}): string {
  return format(value, o, DATE);
}

/** '9:00 AM' (the spec's 'h:mm a' in the US), '9:00 am' in Australia, '09:00' in the UK. */
export function formatTime(value: Value, o: Locale = {}): string {
  return format(value, o, TIME);
}

/** 'Dec 7, 2026, 9:00 AM'; '7 Dec 2026, 9:00 am'. */
export function formatDateTime(value: Value, o: Locale = {}): string {
  return format(value, o, { ...DATE, ...TIME });
}

/** 'Monday, December 7, 2026'; 'Monday 7 December 2026'. */
export function formatLongDate(value: Value, o: Locale = {}): string {
  return format(value, o, { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });
}

/** 'Sun, Dec 7'; 'Sun 7 Dec' (a day in a list of days). */
export function formatShortDay(value: Value, o: Locale = {}): string {
  return format(value, o, { weekday: 'short', month: 'short', day: 'numeric' });
}

/** 'Sun, Jan 5, 2025'; 'Sun 5 Jan 2025' (a plan's day). */
export function formatDayDate(value: Value, o: Locale = {}): string {
  return format(value, o, { weekday: 'short', ...DATE });
}

/** A birthday without its year: 'December 7'; '7 December'. */
export function formatBirthday(value: Value, o: Locale = {}): string {
  return format(value, o, { month: 'long', day: 'numeric' });
}

/** 'Dec 2026' (a month on a chart or a statement's period). */
export function formatMonth(value: Value, o: Locale = {}): string {
  return format(value, o, { month: 'short', year: 'numeric' });
}

/** 'Monday' (the weekday of a calendar date or moment). */
export function formatWeekday(value: Value, o: Locale = {}): string {
  return format(value, o, { weekday: 'long' });
}

/** A wall-clock time 'HH:MM' as the church writes it: '9:00 AM', '09:00'; '' when unreadable. */
export function formatWallTime(hhmm: string | null | undefined, o: Locale = {}): string {
  const m = hhmm ? /^(\d{1,2}):(\d{2})/.exec(hhmm) : null;
  if (!m) return '';
  return plain(
    dtf(o.locale, { ...TIME, timeZone: 'UTC' }).format(new Date(Date.UTC(2000, 0, 1, Number(m[1]), Number(m[2])))),
  );
}

/**
 * A calendar date with its wall time, as a question names it: 'Sunday, December 7 at 9:00 AM' in
 * the US, 'Sunday 7 December at 9:00 am' in Australia; the date alone without a time.
 */
export function formatDayAndTime(date: string, hhmm: string | null | undefined, o: Locale = {}): string {
  const m = hhmm ? /^(\d{1,2}):(\d{2})/.exec(hhmm) : null;
  if (!ISO_DATE.test(date)) return '';
  if (!m) return format(date, o, { weekday: 'long', month: 'long', day: 'numeric' });
  const at = new Date(`${date}T${m[1]!.padStart(2, '0')}:${m[2]}:00Z`);
  return plain(dtf(o.locale, { weekday: 'long', month: 'long', day: 'numeric', ...TIME, timeZone: 'UTC' }).format(at));
}

const numbers = new Map<string, Intl.NumberFormat>();
function nf(locale: string | undefined, currency?: string): Intl.NumberFormat {
  const key = `${locale ?? US}|${currency ?? ''}`;
  let f = numbers.get(key);
  if (!f) {
    f = new Intl.NumberFormat(
      locale ?? US,
      currency ? { style: 'currency', currency, currencyDisplay: 'narrowSymbol' } : undefined,
    );
    numbers.set(key, f);
  }
  return f;
}

/** '1,234' in the church's locale. */
export function formatNumber(n: number, o: Locale = {}): string {
  return nf(o.locale).format(n);
}

/**
 * Money from cents with its currency in the church's locale: '$1,234.50'. The narrow symbol keeps
 * '$' in every English locale (en-AU would otherwise write 'USD 1,234.50').
 */
export function formatMoney(cents: number, o: Locale & { currency?: string } = {}): string {
  return nf(o.locale, (o.currency ?? 'USD').toUpperCase()).format(cents / 100);
}
