import { z } from 'zod';
import { isIsoDate } from '../../shared/dates.js';
import { dmyToIso } from '../../shared/contacts.js';

// Dates as stored (YYYY-MM-DD) and as typed on screen (DD/MM/YYYY).

/** 'YYYY-MM-DD', or empty for none. */
export const isoDateSchema = z
  .string()
  .max(40, 'Please enter a valid date (YYYY-MM-DD)')
  .trim()
  .nullish()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || isIsoDate(v), { message: 'Please enter a valid date (YYYY-MM-DD)' });

/** A date typed as DD/MM/YYYY in a form, read as YYYY-MM-DD (null when empty or unreadable). */
export const dmyDateSchema = z
  .string()
  .nullish()
  .transform((v) => dmyToIso(v));
