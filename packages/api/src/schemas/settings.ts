import { z } from 'zod';
import { isCleanText, notAllowedMessage, timeZoneSchema } from './common.js';

// A church's own settings: its name, its postal address (shown in email footers and receipts), its time zone.

export const churchSettingsSchema = z.object({
  churchName: z.string(),
  postalAddress: z.string().nullable(),
  timeZone: z.string().describe('IANA time zone; campaign times are entered and shown in it'),
});
/** Partial: a field left out keeps its value. */
export const updateChurchSettingsSchema = z.object({
  postalAddress: z
    .string()
    .trim()
    .max(500, 'Postal address must be at most 500 characters')
    .refine(isCleanText, notAllowedMessage('Postal address'))
    .nullish()
    .transform((v) => (v === undefined ? undefined : v || null)),
  timeZone: timeZoneSchema.optional(),
});
