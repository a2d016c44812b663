import type { Db } from '@lampstand/db';
import type { z } from 'zod';
import { notFound } from '../../errors.js';
import type { countryCodeSchema } from '../../schemas/contacts.js';

export type CountryCode = z.output<typeof countryCodeSchema>;

/** What a church that never saved its settings reads phones in (the migration's default too). */
const DEFAULT_COUNTRY_CODE: CountryCode = '+61';

export interface ChurchSettings {
  churchName: string;
  postalAddress: string | null;
  /** Printed on giving statements. */
  taxId: string | null;
  timeZone: string;
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
    .select([
      'users.churchName',
      's.postalAddress',
      's.taxId',
      's.timeZone',
      's.defaultCountryCode',
      's.eventRetentionDays',
    ])
    .where('users.id', '=', tenantId)
    .executeTakeFirst();
  if (!row) throw notFound('Account not found');
  return {
    churchName: row.churchName,
    postalAddress: row.postalAddress ?? null,
    taxId: row.taxId ?? null,
    timeZone: row.timeZone ?? 'UTC',
    defaultCountryCode: (row.defaultCountryCode as CountryCode | null) ?? DEFAULT_COUNTRY_CODE,
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
    .select('defaultCountryCode')
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  return (row?.defaultCountryCode as CountryCode | undefined) ?? DEFAULT_COUNTRY_CODE;
}

/** Partial: a field left undefined keeps its value (the row is created on the first save). */
export async function updateChurchSettings(
  db: Db,
  tenantId: number,
  input: {
    postalAddress?: string | null;
    taxId?: string | null;
    timeZone?: string;
    defaultCountryCode?: CountryCode;
    eventRetentionDays?: number;
  },
): Promise<ChurchSettings> {
  const set = {
    ...(input.postalAddress !== undefined ? { postalAddress: input.postalAddress } : {}),
    ...(input.taxId !== undefined ? { taxId: input.taxId } : {}),
    ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
    ...(input.defaultCountryCode !== undefined ? { defaultCountryCode: input.defaultCountryCode } : {}),
    ...(input.eventRetentionDays !== undefined ? { eventRetentionDays: input.eventRetentionDays } : {}),
  };
  await db
    .insertInto('churchSettings')
    .values({ userId: tenantId, ...set })
    .onConflict((oc) => oc.column('userId').doUpdateSet({ ...set, updatedAt: new Date() }))
    .execute();
  return getChurchSettings(db, tenantId);
}
