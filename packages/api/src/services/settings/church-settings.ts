import type { Db } from '@lampstand/db';
import type { z } from 'zod';
import { notFound } from '../../errors.js';
import type { countryCodeSchema } from '../../schemas/contacts.js';
import {
  callingCodeOf,
  churchLocale,
  countryOfCallingCode,
  effectiveCountry,
  firstDayOfWeek,
} from '../../shared/locale.js';

export type CountryCode = z.output<typeof countryCodeSchema>;

/** What a church that says no country (chosen or by its time zone) reads phones in: the spec's. */
const DEFAULT_COUNTRY_CODE: CountryCode = '+61';

export { effectiveCountry };

/** The calling code a phone without one is read in: its country's, else the spec's '+61'. */
export const callingCodeOfCountry = (country: string | null): CountryCode =>
  country ? callingCodeOf(country) : DEFAULT_COUNTRY_CODE;

export interface ChurchSettings {
  churchName: string;
  postalAddress: string | null;
  /** Printed on giving statements. */
  taxId: string | null;
  timeZone: string;
  country: string | null;
  /** 'en-US', 'en-AU': how its dates and times are written (US formats for a church without a country). */
  locale: string;
  firstDayOfWeek: number;
  defaultCountryCode: CountryCode;
  /** Days its events are kept. */
  eventRetentionDays: number;
}

/** The migration's default: two years. */
const DEFAULT_EVENT_RETENTION_DAYS = 730;

export async function getChurchSettings(db: Db, tenantId: number): Promise<ChurchSettings> {
  const row = await db
    .selectFrom('users')
    .leftJoin('churchSettings as s', 's.userId', 'users.id')
    .select(['users.churchName', 's.postalAddress', 's.taxId', 's.timeZone', 's.country', 's.eventRetentionDays'])
    .where('users.id', '=', tenantId)
    .executeTakeFirst();
  if (!row) throw notFound('Account not found');
  const country = effectiveCountry(row);
  return {
    churchName: row.churchName,
    postalAddress: row.postalAddress ?? null,
    taxId: row.taxId ?? null,
    timeZone: row.timeZone ?? 'UTC',
    country,
    locale: churchLocale(country),
    firstDayOfWeek: firstDayOfWeek(country),
    defaultCountryCode: callingCodeOfCountry(country),
    eventRetentionDays: row.eventRetentionDays ?? DEFAULT_EVENT_RETENTION_DAYS,
  };
}

/**
 * The country code ('+61') the church reads a phone in when none is given: CSV rows without a
 * country, landing page sign-ups, API creates and patches without countryCode, merges.
 */
export async function churchCountryCode(db: Db, tenantId: number): Promise<CountryCode> {
  const row = await db
    .selectFrom('churchSettings')
    .select(['country', 'timeZone'])
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  return callingCodeOfCountry(effectiveCountry(row));
}

/** How a church writes dates and times: its locale and time zone, for the server's renderers. */
export async function churchLocaleOf(db: Db, tenantId: number): Promise<{ locale: string; timeZone: string }> {
  const row = await db
    .selectFrom('churchSettings')
    .select(['country', 'timeZone'])
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  return { locale: churchLocale(effectiveCountry(row)), timeZone: row?.timeZone ?? 'UTC' };
}

/** Partial: a field left undefined keeps its value (the row is created on the first save). */
export async function updateChurchSettings(
  db: Db,
  tenantId: number,
  input: {
    postalAddress?: string | null;
    taxId?: string | null;
    timeZone?: string;
    country?: string;
    defaultCountryCode?: CountryCode;
    eventRetentionDays?: number;
  },
): Promise<ChurchSettings> {
  // A calling code alone (the API before countries) names a country: the church's own when it
  // shares the code ('+1' in Canada), else the code's main one.
  let country = input.country;
  if (country === undefined && input.defaultCountryCode !== undefined) {
    const current = effectiveCountry(
      await db
        .selectFrom('churchSettings')
        .select(['country', 'timeZone'])
        .where('userId', '=', tenantId)
        .executeTakeFirst(),
    );
    country = countryOfCallingCode(input.defaultCountryCode, current ?? undefined);
  }
  const set = {
    ...(input.postalAddress !== undefined ? { postalAddress: input.postalAddress } : {}),
    ...(input.taxId !== undefined ? { taxId: input.taxId } : {}),
    ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
    ...(country !== undefined ? { country } : {}),
    ...(input.eventRetentionDays !== undefined ? { eventRetentionDays: input.eventRetentionDays } : {}),
  };
  await db
    .insertInto('churchSettings')
    .values({ userId: tenantId, ...set })
    .onConflict((oc) => oc.column('userId').doUpdateSet({ ...set, updatedAt: new Date() }))
    .execute();
  return getChurchSettings(db, tenantId);
}
