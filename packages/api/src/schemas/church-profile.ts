import { z } from 'zod';
import { isCleanText, notAllowedMessage } from '../shared/text.js';
import { imageInputSchema, websiteSchema } from './show-up.js';

// A church's public home: its handle (/c/{handle}) and what the page shows.

export const HANDLE_MESSAGE = 'Use 3–40 lowercase letters, numbers and hyphens';
export const HANDLE_TAKEN = 'This handle is taken';

/** 'grace-city': lowercase letters, numbers and single hyphens between them, 3–40 characters. */
export const handleSchema = z
  .string({ error: HANDLE_MESSAGE })
  .trim()
  .toLowerCase()
  .min(3, HANDLE_MESSAGE)
  .max(40, HANDLE_MESSAGE)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, HANDLE_MESSAGE);

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine(isCleanText, notAllowedMessage(label));

export const churchProfileSchema = z.object({
  handle: z.string(),
  /** False until the church saves its profile: the page is not public before. */
  saved: z.boolean(),
  description: z.string(),
  logo: z.object({ url: z.string(), thumbnailUrl: z.string().nullable() }).nullable(),
  address: z.string(),
  serviceTimes: z.string(),
  website: z.string().nullable(),
  /** Where the public home is: `${publicUrl}/c/${handle}`. */
  url: z.string(),
});
export type ChurchProfile = z.infer<typeof churchProfileSchema>;

export const updateChurchProfileSchema = z.object({
  handle: handleSchema,
  description: text('Description', 500).default(''),
  logo: z.preprocess((v) => (v === '' ? null : v), imageInputSchema.nullable()).default(null),
  address: text('Address', 300).default(''),
  serviceTimes: text('Service times', 500).default(''),
  website: websiteSchema.default(null),
});
export type UpdateChurchProfile = z.input<typeof updateChurchProfileSchema>;
