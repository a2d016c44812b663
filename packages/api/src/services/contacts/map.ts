import type { ContactMetadata, ContactsTable } from '@lampstand/db';
import type { Selectable } from 'kysely';
import type { Contact } from '../../schemas/contacts.js';

export type ContactRow = Selectable<ContactsTable>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toContact(r: ContactRow): Contact {
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
      email: { status: r.emailConsent, changedAt: iso(r.emailConsentAt), source: r.emailConsentSource },
      sms: { status: r.smsConsent, changedAt: iso(r.smsConsentAt), source: r.smsConsentSource },
    },
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}
