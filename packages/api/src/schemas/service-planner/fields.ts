import { z } from 'zod';
import { isValidKey } from '../../shared/music.js';
import { HHMM } from '../../shared/service-planner.js';

// ---- Field schemas ----

export const dateSchema = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a valid date`)
    .refine(
      (v) =>
        !Number.isNaN(new Date(`${v}T00:00:00Z`).getTime()) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      `${label} must be a valid date`,
    );

export const timeSchema = (label: string) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? null : v),
    z
      .string({ error: `${label} must be a time as HH:MM` })
      .regex(HHMM, `${label} must be a time as HH:MM`)
      .nullable(),
  );

export const keySchema = z.preprocess(
  (v) => (v === '' || v === undefined ? null : v),
  z
    .string({ error: 'Key must be a valid key, e.g. G, Bb or F#m' })
    .refine(isValidKey, 'Key must be a valid key, e.g. G, Bb or F#m')
    .nullable(),
);

export const okIdSchema = z.object({ id: z.number().int() });
