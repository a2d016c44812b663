import type { ContactMetadata, ContactsTable, Db } from '@lampstand/db';
import type { z } from 'zod';
import { CamelCasePlugin, type CompiledQuery, type Selectable } from 'kysely';
import type { Contact, contactSchema } from '../../schemas/contacts.js';

export type ContactRow = Selectable<ContactsTable>;

/** A contact's metadata as the API answers it (every field present, staff fields only for staff). */
function contactMetadata(metadata: ContactMetadata | null, dateOfBirth: string | null): Contact['metadata'] {
  const m: ContactMetadata = metadata ?? {};
  return {
    countryCode: m.countryCode ?? '+61',
    dateOfBirth,
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
  };
}

export function toContact(r: ContactRow): z.input<typeof contactSchema> {
  return {
    id: r.id,
    userId: r.userId,
    ...names(r),
    tags: r.tags ?? [],
    metadata: contactMetadata(r.metadata, r.dateOfBirth),
    consent: {
      email: { status: r.emailConsent, changedAt: r.emailConsentAt, source: r.emailConsentSource },
      sms: { status: r.smsConsent, changedAt: r.smsConsentAt, source: r.smsConsentSource },
    },
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** The name, email and phones of a contact (the same in both forms). */
function names(r: ContactRow) {
  return { firstName: r.firstName, lastName: r.lastName, email: r.email, phone: r.phone, phoneE164: r.phoneE164 };
}

const isoOrNull = (d: Date | null) => (d === null ? null : d.toISOString());

/**
 * A contact in the API's output form (`contactSchema`'s output: dates as ISO strings), field by
 * field as `toContact` and zod's parse of it would give, for answers marked `exactOutput`.
 */
export function contactAnswer(r: ContactRow): Contact {
  return {
    id: r.id,
    userId: r.userId,
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email,
    phone: r.phone,
    phoneE164: r.phoneE164,
    tags: r.tags ?? [],
    metadata: contactMetadata(r.metadata, r.dateOfBirth),
    consent: {
      email: { status: r.emailConsent, changedAt: isoOrNull(r.emailConsentAt), source: r.emailConsentSource },
      sms: { status: r.smsConsent, changedAt: isoOrNull(r.smsConsentAt), source: r.smsConsentSource },
    },
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** The camel-case plugin's own mapping of a row's keys (nested objects too), for one value. */
class KeyCase extends CamelCasePlugin {
  camelKeys(value: Record<string, unknown>): Record<string, unknown> {
    return this.mapRow(value);
  }
}
const keyCase = new KeyCase();

/** The plugin's mapping, skipped when no key has an underscore (it would give the same keys). */
function camelKeys(value: object): object {
  for (const key in value) if (key.includes('_')) return keyCase.camelKeys(value as Record<string, unknown>);
  return value;
}

/** A column's name in snake case, as PostgreSQL names it (`phoneE164` → `phone_e164`). */
type Snake<Key extends string> = Key extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<T>}`
  : Key;

/** A contacts row as PostgreSQL names its columns (a `select c.*` or the explicit list of PAGE_OF_ALL). */
export type SnakeContactRow = { [K in Extract<keyof ContactRow, string> as Snake<K>]: ContactRow[K] };

const withoutPlugins = new WeakMap<Db, Db>();

/**
 * The rows of a constant statement read past the camel-case plugin (handles are kept per church, so
 * is this one): the plugin builds every row again key by key, and `contactAnswerOf` names the
 * columns of a page of contacts directly.
 */
export async function snakeRows<R extends Record<string, unknown>>(db: Db, query: CompiledQuery): Promise<R[]> {
  let bare = withoutPlugins.get(db);
  if (!bare) withoutPlugins.set(db, (bare = db.withoutPlugins()));
  return (await bare.executeQuery<R>(query)).rows;
}

/**
 * A contacts row read by `snakeRows` in the API's output form, as `contactAnswer` gives it for the
 * row the camel-case plugin would have read (nested metadata keys mapped as the plugin does).
 */
export function contactAnswerOf(r: SnakeContactRow): Contact {
  const m = r.metadata;
  return {
    id: r.id,
    userId: r.user_id,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
    phone: r.phone,
    phoneE164: r.phone_e164,
    tags: r.tags ?? [],
    metadata: contactMetadata(
      m !== null && typeof m === 'object' && !Array.isArray(m) ? camelKeys(m) : m,
      r.date_of_birth,
    ),
    consent: {
      email: { status: r.email_consent, changedAt: isoOrNull(r.email_consent_at), source: r.email_consent_source },
      sms: { status: r.sms_consent, changedAt: isoOrNull(r.sms_consent_at), source: r.sms_consent_source },
    },
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}
