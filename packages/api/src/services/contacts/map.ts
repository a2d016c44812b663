import type { ContactMetadata, ContactsTable, Db } from '@lampstand/db';
import type { z } from 'zod';
import { CamelCasePlugin, type CompiledQuery, type Selectable } from 'kysely';
import type { contactSchema } from '../../schemas/contacts.js';

export type ContactRow = Selectable<ContactsTable>;

export function toContact(r: ContactRow): z.input<typeof contactSchema> {
  const m: ContactMetadata = r.metadata ?? {};
  return {
    id: r.id,
    userId: r.userId,
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email,
    phone: r.phone,
    phoneE164: r.phoneE164,
    tags: r.tags ?? [],
    metadata: {
      countryCode: m.countryCode ?? '+61',
      dateOfBirth: r.dateOfBirth,
      notes: m.notes ?? null,
      isChurchMember: m.isChurchMember ?? false,
      isBaptised: m.isBaptised ?? false,
      isSeeker: m.isSeeker ?? false,
      isServiceStaff: m.isServiceStaff ?? false,
      staffRole: m.isServiceStaff ? (m.staffRole ?? null) : null,
      wwccNumber: m.isServiceStaff ? (m.wwccNumber ?? null) : null,
      website: m.website ?? null,
      address: m.address ?? null,
      city: m.city ?? null,
      state: m.state ?? null,
      country: m.country ?? null,
      postalCode: m.postalCode ?? null,
    },
    consent: {
      email: { status: r.emailConsent, changedAt: r.emailConsentAt, source: r.emailConsentSource },
      sms: { status: r.smsConsent, changedAt: r.smsConsentAt, source: r.smsConsentSource },
    },
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** The camel-case plugin's own mapping of a row's keys (nested objects too), for one value. */
class KeyCase extends CamelCasePlugin {
  camelKeys(value: Record<string, unknown>): Record<string, unknown> {
    return this.mapRow(value);
  }
}
const keyCase = new KeyCase();

/** A contacts row as PostgreSQL names its columns (a `select c.*` or the explicit list of PAGE_OF_ALL). */
export type SnakeContactRow = Record<string, unknown> & { id: number | null };

const withoutPlugins = new WeakMap<Db, Db>();

/**
 * The rows of a constant statement read past the camel-case plugin (handles are kept per church, so
 * is this one): the plugin builds every row again key by key, and `contactRowOf` names the
 * columns of a page of contacts directly.
 */
export async function snakeRows<R extends Record<string, unknown>>(db: Db, query: CompiledQuery): Promise<R[]> {
  let bare = withoutPlugins.get(db);
  if (!bare) withoutPlugins.set(db, (bare = db.withoutPlugins()));
  return (await bare.executeQuery<R>(query)).rows;
}

/** A contacts row read by `snakeRows`, as the camel-case plugin would have given it (nested metadata keys too). */
export function contactRowOf(r: SnakeContactRow): ContactRow {
  const m = r.metadata;
  return {
    id: r.id,
    userId: r.user_id,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
    emailLower: r.email_lower,
    phone: r.phone,
    phoneE164: r.phone_e164,
    tags: r.tags,
    metadata:
      m !== null && typeof m === 'object' && !Array.isArray(m) ? keyCase.camelKeys(m as Record<string, unknown>) : m,
    dateOfBirth: r.date_of_birth,
    emailConsent: r.email_consent,
    emailConsentAt: r.email_consent_at,
    emailConsentSource: r.email_consent_source,
    smsConsent: r.sms_consent,
    smsConsentAt: r.sms_consent_at,
    smsConsentSource: r.sms_consent_source,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  } as ContactRow;
}
