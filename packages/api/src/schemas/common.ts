import { z } from 'zod';
import { isTimeZone } from '../shared/time-zone.js';
import { isCleanText } from '../shared/text.js';

// Bounded building blocks for every schema: ids that fit PostgreSQL's integer, text without
// control characters or lone surrogates (PostgreSQL refuses NUL; JSON refuses lone surrogates),
// and a maximum length. Bad input is a 400 naming the field, never a 500.

export const MAX_ID = 2_147_483_647;

/** A row id: a whole number from 1 to 2^31-1, from a number or a numeric string. */
export const idSchema = (label = 'ID') =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a number`)
    .positive(`${label} must be a number`)
    .max(MAX_ID, `${label} must be a number`);

/**
 * Text of at most `max` characters with no control characters or lone surrogates.
 * `label` names the field in the messages ('Name is too long').
 */
export const textSchema = (label: string, max = 2000) =>
  z
    .string({ error: `${label} must be text` })
    .max(max, `${label} must be at most ${max} characters`)
    .refine(isCleanText, `${label} contains characters that are not allowed`);

/** Required text: trimmed, not empty ('{label} is required' unless `requiredMessage` is given). */
export const requiredTextSchema = (label: string, max = 2000, requiredMessage = `${label} is required`) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(max, `${label} must be at most ${max} characters`)
    .refine(isCleanText, `${label} contains characters that are not allowed`);

/** Optional text: '' and null both mean "none" (null out). */
export const optionalTextSchema = (label: string, max = 2000) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? null : typeof v === 'string' && v.trim() === '' ? null : v),
    textSchema(label, max).nullable(),
  );

/** An http(s) URL. */
export const urlSchema = (message = 'Please enter a valid URL', max = 2048) =>
  z
    .string({ error: message })
    .trim()
    .max(max, message)
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && isCleanText(v);
      } catch {
        return false;
      }
    }, message);

/** A bounded array. */
export const boundedArraySchema = <T extends z.ZodType>(item: T, label: string, max = 1000) =>
  z.array(item).max(max, `${label}: at most ${max} items`);

/** An email address ('Please enter a valid email address'): trimmed, at most 320 characters. */
export const emailAddressSchema = (message = 'Please enter a valid email address') =>
  z.string({ error: message }).trim().pipe(z.email(message).max(320, message));

/** An IANA time zone ('America/Chicago'); offsets such as '+02:00' and abbreviations are refused. */
export const timeZoneSchema = z
  .string({ error: 'Please choose a valid time zone' })
  .trim()
  .max(64, 'Please choose a valid time zone')
  .refine(isTimeZone, 'Please choose a valid time zone')
  .describe("IANA time zone, e.g. 'America/Chicago'");

/**
 * A point in time in an output schema. Services hand over the `Date` that pg returns for a
 * timestamptz column; the procedure's `.output()` turns it into ISO 8601 text
 * ('2026-11-23T09:30:00.000Z'), so tRPC and REST clients receive the same string and no service
 * calls `toISOString()` by hand. In the OpenAPI document it is a string.
 */
export const isoTimestamp = z.codec(z.date(), z.string(), {
  decode: (date) => date.toISOString(),
  encode: (text) => new Date(text),
});
