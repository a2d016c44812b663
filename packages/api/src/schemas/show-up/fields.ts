import { z } from 'zod';
import { boundedArray, idSchema, isCleanText, textSchema } from '../common.js';
import { MAX_MONEY, PROJECT_CATEGORIES } from '../show-up-values.js';

// The field schemas the Show Up forms share: money in cents, dates, addresses, images, tags.

export const CATEGORY_VALUES = PROJECT_CATEGORIES.map((c) => c.value) as [string, ...string[]];

/** Whole cents of a dollar amount with at most 2 decimals, without float error (19.99 -> 1999). */
export function toCents(amount: number): number {
  const [whole, frac = ''] = amount.toFixed(6).split('.');
  const cents = Number(whole!.replace('-', '')) * 100 + Number(frac.slice(0, 2).padEnd(2, '0'));
  // toFixed(6) rounds 19.989999999 up to 19.990000, so the first two decimals are the intended ones.
  return amount < 0 ? -cents : cents;
}

/** True when the amount has at most 2 decimal places (as typed: 12.5, 12.50, 12). */
export function hasAtMostTwoDecimals(amount: number): boolean {
  return Math.abs(toCents(amount) - amount * 100) < 1e-6;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

export const emptyToNull = (v: unknown) =>
  v === '' || v === undefined || (typeof v === 'string' && v.trim() === '') ? null : v;
export const numberOrNull = (v: unknown) => {
  const e = emptyToNull(v);
  if (typeof e === 'string' && e.trim() !== '' && Number.isFinite(Number(e))) return Number(e);
  return e;
};

export const cleanText = (label: string, min: number, max: number, minMessage: string, maxMessage?: string) =>
  z
    .string({ error: minMessage })
    .trim()
    .min(min, minMessage)
    .max(max, maxMessage ?? `${label} must be at most ${max} characters`)
    .refine(isCleanText, `${label} contains characters that are not allowed`);

export const emailSchema = z
  .string({ error: 'Invalid email address' })
  .trim()
  .max(320, 'Invalid email address')
  .pipe(z.email('Invalid email address'));

/** A website: 'example.org' is taken as https://example.org. */
export const websiteSchema = z.preprocess(
  (v) => {
    const e = emptyToNull(v);
    if (typeof e !== 'string') return e;
    const t = e.trim();
    return /^[a-z][a-z0-9+.-]*:/i.test(t) ? t : `https://${t}`;
  },
  z
    .string()
    .max(2048, 'Please enter a valid URL')
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.includes('.') && isCleanText(v);
      } catch {
        return false;
      }
    }, 'Please enter a valid URL')
    .nullable(),
);

/** An image URL: http(s), or a path on this server (/uploads/...). */
const imageUrlSchema = z
  .string({ error: 'Please enter a valid image URL' })
  .trim()
  .min(1, 'Please enter a valid image URL')
  .max(2048, 'Please enter a valid image URL')
  .refine((v) => {
    if (v.startsWith('/') && !v.startsWith('//')) return isCleanText(v) && !/\s/.test(v);
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && isCleanText(v);
    } catch {
      return false;
    }
  }, 'Please enter a valid image URL');

/** An image as the uploads service returns it, or just its URL. */
export const imageInputSchema = z.preprocess(
  (v) => (typeof v === 'string' ? { url: v } : v),
  z.object({
    id: idSchema('Upload ID').nullish(),
    url: imageUrlSchema,
    thumbnailUrl: imageUrlSchema.nullish(),
  }),
);

export const tagsSchema = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean)
      : v == null
        ? []
        : v,
  boundedArray(textSchema('Tag', 50).trim().min(1, 'Tags cannot be empty'), 'Tags', 30),
);

export const moneySchema = (requiredMessage: string, positiveMessage: string) =>
  z.preprocess(
    numberOrNull,
    z
      .number({ error: (iss) => (iss.input == null ? requiredMessage : positiveMessage) })
      .refine((n) => Number.isFinite(n), positiveMessage)
      .positive(positiveMessage)
      .max(MAX_MONEY, 'Amount must be less than $100,000,000')
      .refine(hasAtMostTwoDecimals, 'Amount can have at most 2 decimal places'),
  );

export const coordinate = (label: string, limit: number) =>
  z.preprocess(
    numberOrNull,
    z
      .number({ error: `${label} must be a number` })
      .min(-limit, `${label} must be between -${limit} and ${limit}`)
      .max(limit, `${label} must be between -${limit} and ${limit}`)
      .nullable(),
  );

export const dateSchema = z.string({ error: 'Invalid date format' }).trim().refine(isIsoDate, 'Invalid date format');
