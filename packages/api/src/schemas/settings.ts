import { z } from 'zod';
import { isCleanText, notAllowedMessage, timeZoneSchema } from './common.js';
import { countryCodeSchema } from './contacts.js';

// A church's own settings: its name, its postal address (shown in email footers and receipts), its time
// zone, and the country a phone typed without a country code is read in.

export const churchSettingsSchema = z.object({
  churchName: z.string(),
  postalAddress: z.string().nullable(),
  timeZone: z.string().describe('IANA time zone; campaign times are entered and shown in it'),
  defaultCountryCode: countryCodeSchema.describe(
    'Country code a phone without one is read in (CSV import, landing page sign-ups, the API, merge)',
  ),
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
  defaultCountryCode: countryCodeSchema.optional(),
});
