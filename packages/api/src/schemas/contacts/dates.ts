import { z } from 'zod';

// Dates as stored (YYYY-MM-DD) and as typed on screen (DD/MM/YYYY).

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export function isValidIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** 'YYYY-MM-DD', or empty for none. */
export const isoDateSchema = z
  .string()
  .max(40, 'Please enter a valid date (YYYY-MM-DD)')
  .trim()
  .nullish()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || isValidIsoDate(v), { message: 'Please enter a valid date (YYYY-MM-DD)' });

/** DD/MM/YYYY (as typed on screen) to YYYY-MM-DD; null when it cannot be parsed (the spec drops such a value). */
export function dmyToIso(value: string | null | undefined): string | null {
  if (!value) return null;
  const m = /^\s*(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\s*$/.exec(value);
  if (!m) return null;
  const iso = `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  return isValidIsoDate(iso) ? iso : null;
}
/** A date typed as DD/MM/YYYY in a form, read as YYYY-MM-DD (null when empty or unreadable). */
export const dmyDateSchema = z
  .string()
  .nullish()
  .transform((v) => dmyToIso(v));

/** Whole years from a 'YYYY-MM-DD' date of birth to `today` (a child's age, never typed by hand). */
export function ageFromDateOfBirth(iso: string, today: Date = new Date()): number | null {
  if (!isValidIsoDate(iso)) return null;
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const month = today.getMonth() + 1;
  const beforeBirthday = month < m || (month === m && today.getDate() < d);
  const age = today.getFullYear() - y - (beforeBirthday ? 1 : 0);
  return age >= 0 ? age : null;
}

/** YYYY-MM-DD to DD/MM/YYYY for display and editing. */
export function isoToDmy(value: string | null | undefined): string {
  if (!value) return '';
  const m = ISO_DATE.exec(value);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : '';
}
