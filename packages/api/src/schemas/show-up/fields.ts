import { z } from 'zod';
import { boundedArraySchema, idSchema, textSchema } from '../common.js';
import { isCleanText } from '../../shared/text.js';
import { isIsoDate } from '../../shared/dates.js';
import { emptyToNull, numberOrNull } from '../../shared/form-input.js';
import { hasAtMostTwoDecimals } from '../../shared/show-up.js';
import { isImageUrl } from '../../shared/urls.js';
import { MAX_MONEY, PROJECT_CATEGORIES } from '../show-up-values.js';

// The field schemas the Show Up forms share: money in cents, dates, addresses, images, tags.

export const CATEGORY_VALUES = PROJECT_CATEGORIES.map((c) => c.value) as [string, ...string[]];

export const cleanTextSchema = (label: string, min: number, max: number, minMessage: string, maxMessage?: string) =>
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
  .refine(isImageUrl, 'Please enter a valid image URL');

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
  boundedArraySchema(textSchema('Tag', 50).trim().min(1, 'Tags cannot be empty'), 'Tags', 30),
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

export const coordinateSchema = (label: string, limit: number) =>
  z.preprocess(
    numberOrNull,
    z
      .number({ error: `${label} must be a number` })
      .min(-limit, `${label} must be between -${limit} and ${limit}`)
      .max(limit, `${label} must be between -${limit} and ${limit}`)
      .nullable(),
  );

export const dateSchema = z.string({ error: 'Invalid date format' }).trim().refine(isIsoDate, 'Invalid date format');
