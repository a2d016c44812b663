/**
 * Reading one cell of another system's export: amounts to the cent, dates, yes/no and payment
 * methods. Each reader answers the value or a worded reason naming what it could not read, for
 * the preview's list of problems (with the row and column beside it).
 */

export type Read<T> = { ok: true; value: T } | { ok: false; reason: string };

const ok = <T>(value: T): Read<T> => ({ ok: true, value });
const fail = <T>(reason: string): Read<T> => ({ ok: false, reason });

/**
 * An amount written the US way ('1,234.56', '$50', '-20.00', '(20.00)' for a refund) in cents. A
 * comma before exactly two digits ('12,50') is a decimal comma, which a US file does not use: it
 * is refused rather than read as 1250 dollars.
 */
export function readAmount(raw: string): Read<number> {
  const plain = plainCents(raw);
  if (plain > 0) return ok(plain);
  let s = raw.trim().replace(/^\$|^USD\s*/i, '');
  if (!s) return fail('The amount is empty');
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  if (s.startsWith('-')) {
    negative = !negative;
    s = s.slice(1).trim();
  }
  s = s.replace(/^\$/, '');
  if (/^\d+,\d{1,2}$/.test(s)) {
    return fail(`'${raw.trim()}' uses a decimal comma; this file is read as US, so write it as ${s.replace(',', '.')}`);
  }
  if (!/^(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/.test(s)) return fail(`'${raw.trim()}' is not an amount`);
  const [whole, cents = ''] = s.replace(/,/g, '').split('.');
  const value = Number(whole) * 100 + Number(cents.padEnd(2, '0'));
  if (!Number.isSafeInteger(value) || value > 2_000_000_000) return fail(`'${raw.trim()}' is too large`);
  if (value === 0) return fail('The amount is zero');
  return ok(negative ? -value : value);
}

/**
 * The cents of an amount written plainly — up to nine digits, then a point and one or two digits
 * or nothing ('1234.5', '50') — read without a regular expression or a substring; 0 for anything
 * else, or zero, or too large (`readAmount` reads those, or says why not, the long way).
 */
function plainCents(s: string): number {
  const n = s.length;
  let i = 0;
  let whole = 0;
  for (; i < n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) break;
    whole = whole * 10 + d;
  }
  if (i === 0 || i > 9) return 0;
  let cents = whole * 100;
  if (i < n) {
    const decimals = n - i - 1;
    if (s.charCodeAt(i) !== 46 || decimals < 1 || decimals > 2) return 0;
    const d1 = s.charCodeAt(i + 1) - 48;
    const d2 = decimals === 2 ? s.charCodeAt(i + 2) - 48 : 0;
    if (d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) return 0;
    cents += d1 * 10 + d2;
  }
  return cents <= 2_000_000_000 ? cents : 0;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function isoOf(y: number, m: number, d: number): string | null {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

const digitAt = (s: string, i: number) => {
  const d = s.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : NaN;
};
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A valid date written '2024-03-15', alone or with a time after a 'T' or a space, read without a
 * regular expression or a Date: what `readDate` answers for it. Null for anything else (a year
 * before 100, a one-digit month, a day the month does not have: `readDate` reads those the long way).
 */
function plainIsoDate(s: string): string | null {
  const n = s.length;
  if (n < 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return null;
  const y = digitAt(s, 0) * 1000 + digitAt(s, 1) * 100 + digitAt(s, 2) * 10 + digitAt(s, 3);
  const m = digitAt(s, 5) * 10 + digitAt(s, 6);
  const d = digitAt(s, 8) * 10 + digitAt(s, 9);
  // NaN (not a digit) fails each comparison.
  if (!(y >= 100 && m >= 1 && m <= 12 && d >= 1)) return null;
  const leap = m === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (!(d <= DAYS[m - 1]! + (leap ? 1 : 0))) return null;
  if (n === 10) return s;
  // After the date, what the long way's pattern allows: a 'T' or a space, then no line break.
  const sep = s.charCodeAt(10);
  if (sep !== 84 && sep !== 32) return null;
  for (let i = 11; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) return null;
  }
  return s.slice(0, 10);
}

/**
 * A calendar date as the exports write it: '2024-03-15' (with or without a time after it),
 * '03/15/2024' (US month first), '3/15/24' or 'Mar 15, 2024'. Null for an empty cell.
 */
export function readDate(raw: string): Read<string | null> {
  const s = raw.trim();
  if (!s) return ok(null);
  const plain = plainIsoDate(s);
  if (plain !== null) return ok(plain);
  let iso: string | null = null;
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(s);
  if (m) iso = isoOf(Number(m[1]), Number(m[2]), Number(m[3]));
  else if ((m = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(s))) {
    const y = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
    iso = isoOf(m[3]!.length === 2 && y > new Date().getUTCFullYear() ? y - 100 : y, Number(m[1]), Number(m[2]));
  } else if ((m = /^([A-Za-z]{3})[a-z]*\.? (\d{1,2}),? (\d{4})$/.exec(s))) {
    const month = MONTHS.indexOf(m[1]!.toLowerCase()) + 1;
    if (month > 0) iso = isoOf(Number(m[3]), month, Number(m[2]));
  }
  return iso ? ok(iso) : fail(`'${s}' is not a date this import can read (use 2024-03-15 or 03/15/2024)`);
}

/**
 * A birth date: a date as `readDate` reads it, except what ChurchCRM writes for a birthday it
 * does not fully know — '-', '0-0' or '1980-0-0' (unknown: no date) and '4-12' (month and day, the
 * year hidden: kept aside, since a contact's birth date is a whole date).
 */
export function readBirthDate(raw: string): Read<{ date: string | null; yearless: boolean }> {
  const s = raw.trim();
  if (/^-$|^(\d{4}-)?0{1,2}-0{1,2}$/.test(s)) return ok({ date: null, yearless: false });
  const m = /^(\d{1,2})-(\d{1,2})$/.exec(s);
  if (m && isoOf(2000, Number(m[1]), Number(m[2]))) return ok({ date: null, yearless: true });
  const d = readDate(s);
  return d.ok ? ok({ date: d.value, yearless: false }) : d;
}

const YES = new Set(['yes', 'y', 'true', '1', 'x', 'opted in', 'subscribed', 't']);
const NO = new Set(['no', 'n', 'false', '0', 'opted out', 'unsubscribed', 'f']);

/** A yes/no cell: true, false, or null when the cell says nothing. */
export function readYesNo(raw: string | undefined): boolean | null {
  const s = lowerCased((raw ?? '').trim());
  if (YES.has(s)) return true;
  if (NO.has(s)) return false;
  return null;
}

type Method = 'card' | 'cash' | 'check' | 'other';
const CHECK = /cheque|check/;
const CASH = /cash/;
const CARD = /card|visa|master|amex|discover|credit|debit/;

/** The ledger's payment method for the export's wording. */
export function readMethod(raw: string | undefined): Method {
  const s = (raw ?? '').trim().toLowerCase();
  if (CHECK.test(s)) return 'check';
  if (CASH.test(s)) return 'cash';
  if (CARD.test(s)) return 'card';
  return 'other';
}

/**
 * `readMethod` for the rows of one file, each wording read once (an export has a handful, on every
 * row). Kept with the file, not the process: a cell can be a slice that holds the whole file's text.
 */
export function methodReader(): (raw: string | undefined) => Method {
  const read = new Map<string, Method>();
  return (raw) => {
    const key = raw ?? '';
    let method = read.get(key);
    if (method === undefined) {
      method = readMethod(key);
      if (read.size < 100) read.set(key, method);
    }
    return method;
  };
}

/** `s.toLowerCase()`, the string itself when it has no capital (ASCII without A–Z): no copy of it. */
export function lowerCased(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 65 && c <= 90) || c > 127) return s.toLowerCase();
  }
  return s;
}

/** A name compared the same whatever its case or spacing (accents are kept: José is not Jose). */
export const nameKey = (first: string, last: string) =>
  `${first.trim().replace(/\s+/g, ' ')} ${last.trim().replace(/\s+/g, ' ')}`.normalize('NFC').toLowerCase();

/**
 * Runs of white space as one space (`s.replace(/\s+/g, ' ')`): the string itself when it has none
 * to change (ASCII without a tab, a line break or two spaces running), without a regular expression.
 */
export function oneSpaced(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      const next = s.charCodeAt(i + 1);
      if (next === 32 || (next >= 9 && next <= 13) || next > 127) return s.replace(/\s+/g, ' ');
    } else if ((c >= 9 && c <= 13) || c > 127) return s.replace(/\s+/g, ' ');
  }
  return s;
}
