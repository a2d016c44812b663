import { z } from 'zod';
import { timeZoneSchema } from './common.js';
import { isCleanText, notAllowedMessage } from '../shared/text.js';
import { countryCodeSchema } from './contacts.js';
import { isCountry } from '../shared/locale.js';

// A church's own settings: its name, its postal address (shown in email footers and receipts), its time
// zone, and its country (a phone typed without a country code is read in it; dates and times are
// written as there).

/** An ISO 3166 country code ('US', 'AU') of a country with a telephone calling code. */
export const countrySchema = z
  .string({ error: 'Please choose a country' })
  .trim()
  .toUpperCase()
  .refine(isCountry, 'Please choose a country')
  .describe("ISO 3166 country code, e.g. 'US' or 'AU'");

export const churchSettingsSchema = z.object({
  churchName: z.string(),
  postalAddress: z.string().nullable(),
  taxId: z.string().nullable().describe("The church's tax id (EIN), printed on giving statements"),
  timeZone: z.string().describe('IANA time zone; campaign times are entered and shown in it'),
  country: z
    .string()
    .nullable()
    .describe("The church's country (ISO 3166): chosen, or its time zone's; null when neither says"),
  locale: z.string().describe("The locale its dates and times are written in ('en-US', 'en-AU')"),
  firstDayOfWeek: z.number().int().describe('The first day of its week: 0 Sunday, 1 Monday, 6 Saturday'),
  defaultCountryCode: countryCodeSchema.describe(
    "Calling code a phone without one is read in (CSV import, landing page sign-ups, the API, merge): the country's",
  ),
  eventRetentionDays: z
    .number()
    .int()
    .describe("Days the church's activity (its events log) is kept; older events are deleted each day"),
});

export const MIN_EVENT_RETENTION_DAYS = 30;
export const MAX_EVENT_RETENTION_DAYS = 3650;
/** The choices of Settings' 'Keep activity for' (any whole number of days in range is accepted). */
export const EVENT_RETENTION_CHOICES = [
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 180, label: '6 months' },
  { days: 365, label: '1 year' },
  { days: 730, label: '2 years' },
  { days: 1825, label: '5 years' },
  { days: 3650, label: '10 years' },
] as const;
const retentionMessage = `Keep activity for must be between ${MIN_EVENT_RETENTION_DAYS} and ${MAX_EVENT_RETENTION_DAYS} days`;
export const eventRetentionDaysSchema = z
  .number({ error: retentionMessage })
  .int(retentionMessage)
  .min(MIN_EVENT_RETENTION_DAYS, retentionMessage)
  .max(MAX_EVENT_RETENTION_DAYS, retentionMessage);
/** Partial: a field left out keeps its value. */
export const updateChurchSettingsSchema = z.object({
  postalAddress: z
    .string()
    .trim()
    .max(500, 'Postal address must be at most 500 characters')
    .refine(isCleanText, notAllowedMessage('Postal address'))
    .nullish()
    .transform((v) => (v === undefined ? undefined : v || null)),
  taxId: z
    .string()
    .trim()
    .max(40, 'Tax ID must be at most 40 characters')
    .refine(isCleanText, notAllowedMessage('Tax ID'))
    .nullish()
    .transform((v) => (v === undefined ? undefined : v || null)),
  timeZone: timeZoneSchema.optional(),
  country: countrySchema.optional(),
  /** Sets the country: the church's own when it shares the code ('+1' in Canada), else the code's main one. */
  defaultCountryCode: countryCodeSchema.optional(),
  eventRetentionDays: eventRetentionDaysSchema.optional(),
});
