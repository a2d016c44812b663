import { stringify } from 'csv-stringify/sync';

// The one CSV writer: every export (contacts, Show Up donations, …) writes its rows through it, so
// every file gets the same quoting, the same formula guard and the same date format.

/**
 * A cell of a phone column (a phone number or a calling code). A `+` followed by digits only (an
 * E.164 number, '+61') is written as it is: digits cannot make a spreadsheet run anything, and a
 * guarded `'+61` is not the number any more. Anything else in it is guarded like text.
 */
export interface CsvPhone {
  phone: string;
}

/** A cell as a service has it; the writer turns it into text. */
export type CsvCell = string | number | boolean | Date | CsvPhone | null | undefined;

/** A phone column's cell (see `CsvPhone`). */
export const phoneCell = (phone: string | null | undefined): CsvPhone | null => (phone ? { phone } : null);

/**
 * A spreadsheet opening the file must not run a cell as a formula: every text cell that starts with
 * =, +, -, @, tab or carriage return gets a leading apostrophe (the contact importer drops that
 * apostrophe again; phone columns use `phoneCell`, which leaves '+61412000111' alone). `-1+1+cmd|' /C calc'!A0` is a formula, so a
 * leading sign is guarded whatever follows it.
 */
export function safeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * One cell's text: a date as ISO 8601 in UTC (never `Date.toString()`), a number as written by
 * JavaScript (our own figures, not typed text, so not guarded), empty for null, a phone as
 * `CsvPhone` says, text guarded.
 */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'object') return /^\+\d{1,15}$/.test(value.phone) ? value.phone : safeCell(value.phone);
  return safeCell(value);
}

/** Rows as CSV text (RFC 4180 quoting, `\n` line ends), every cell through csvCell. */
export function toCsv(rows: readonly (readonly CsvCell[])[]): string {
  return stringify(rows.map((row) => row.map(csvCell)));
}

/**
 * A table's rows as CSV, keeping null apart from empty text: null is an empty field, empty text is
 * `""` (a reader tells them apart by the quotes, as `readExport` does). The cells are guarded as in
 * `toCsv`.
 */
export function toCsvTable(rows: readonly (readonly CsvCell[])[]): string {
  return stringify(
    rows.map((row) => row.map((v) => (v === null || v === undefined ? null : csvCell(v)))),
    { quoted_match: /^$/ },
  );
}
