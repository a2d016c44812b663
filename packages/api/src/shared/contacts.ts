import { isIsoDate, ISO_DATE } from './dates.js';
import type { DuplicateContact, Relationship } from '../schemas/contacts.js';

// Contacts in words and dates as typed on screen (DD/MM/YYYY): the forms and the server share them.

/** DD/MM/YYYY (as typed on screen) to YYYY-MM-DD; null when it cannot be parsed (the spec drops such a value). */
export function dmyToIso(value: string | null | undefined): string | null {
  if (!value) return null;
  const m = /^\s*(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\s*$/.exec(value);
  if (!m) return null;
  const iso = `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  return isIsoDate(iso) ? iso : null;
}

/** Whole years from a 'YYYY-MM-DD' date of birth to `today` (a child's age, never typed by hand). */
export function ageFromDateOfBirth(iso: string, today: Date = new Date()): number | null {
  if (!isIsoDate(iso)) return null;
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

/** '(min-max years)' as the spec shows a group's ages. */
export function formatAgeRange(g: { ageMin: number | null; ageMax: number | null }): string {
  if (g.ageMin == null && g.ageMax == null) return '';
  return `(${g.ageMin ?? 0}-${g.ageMax ?? '+'} years)`;
}

/** 'A contact with this email already exists' (or phone, or both) for one match. */
export function duplicateMessage(d: DuplicateContact): string {
  const what =
    d.matchedOn.length === 2
      ? 'this email and phone number'
      : d.matchedOn[0] === 'email'
        ? 'this email'
        : 'this phone number';
  return `A contact with ${what} already exists`;
}

/** The question a save with `ifDuplicate: 'ask'` answers: 'A contact with this phone number already exists: Mary Jones.' */
export function duplicatesQuestion(duplicates: DuplicateContact[]): string {
  return duplicates.map((d) => `${duplicateMessage(d)}: ${`${d.firstName} ${d.lastName}`.trim()}.`).join(' ');
}

/** How a relationship reads from the other contact's side (parent ↔ child). */
export function inverseRelationship(r: Relationship): Relationship {
  return r === 'parent' ? 'child' : r === 'child' ? 'parent' : r;
}
