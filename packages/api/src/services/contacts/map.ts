import type { ContactMetadata, ContactsTable } from '@lampstand/db';
import type { z } from 'zod';
import type { Selectable } from 'kysely';
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
