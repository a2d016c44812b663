import type { CsvCell } from '../../render/csv.js';

/**
 * One database value as an export CSV cell, and back. JSON and array columns are written as JSON
 * text, times as ISO 8601 (UTC), true/false as yes/no, bytes as base64; null stays an empty field
 * that `toCsvTable` writes unquoted (an empty text is `""`). `decodeCell` is the inverse given the
 * column's type, which manifest.json names.
 */
export function encodeCell(value: unknown, type: string): CsvCell {
  if (value === null || value === undefined) return null;
  if (type === 'json' || type === 'jsonb' || type === 'array') return JSON.stringify(value);
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (value instanceof Date || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string')
    return value;
  return JSON.stringify(value);
}

const NUMBER_TYPES = new Set(['integer', 'bigint', 'smallint', 'numeric', 'real', 'double precision']);

/** A text cell as written, without the formula guard's apostrophe (see `safeCell` in render/csv.ts). */
export const unguard = (text: string) => (/^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text);

export function decodeCell(text: string | null, type: string): unknown {
  if (text === null) return null;
  const value = unguard(text);
  if (NUMBER_TYPES.has(type)) return Number(value);
  if (type === 'boolean') return value === 'yes';
  if (type === 'json' || type === 'jsonb' || type === 'array') return JSON.parse(value) as unknown;
  if (type.startsWith('timestamp')) return new Date(value);
  if (type === 'bytea') return Buffer.from(value, 'base64');
  return value;
}
