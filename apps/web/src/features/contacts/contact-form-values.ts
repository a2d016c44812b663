import { type ContactFormValues } from '@lampstand/api/schemas/contacts';
import { isoToDmy } from '@lampstand/api/shared/contacts';
import { type Contact } from './labels';

export const TABS = ['basic', 'church', 'address', 'dependants'] as const;

export type Tab = (typeof TABS)[number];

/** The form's values for `c`, or empty ones whose phone is read in the church's calling code. */
export function initialValues(c?: Contact, churchCountryCode = '+61'): ContactFormValues {
  const m = c?.metadata;
  return {
    firstName: c?.firstName ?? '',
    lastName: c?.lastName ?? '',
    email: c?.email ?? '',
    phone: c?.phone ?? '',
    metadata: {
      countryCode: m?.countryCode ?? churchCountryCode,
      dateOfBirth: isoToDmy(m?.dateOfBirth),
      notes: m?.notes ?? '',
      isChurchMember: m?.isChurchMember ?? false,
      isBaptised: m?.isBaptised ?? false,
      isSeeker: m?.isSeeker ?? false,
      isServiceStaff: m?.isServiceStaff ?? false,
      staffRole: (m?.staffRole ?? null) as null,
      wwccNumber: m?.wwccNumber ?? '',
      website: m?.website ?? '',
      address: m?.address ?? '',
      city: m?.city ?? '',
      state: m?.state ?? '',
      country: m?.country ?? '',
      postalCode: m?.postalCode ?? '',
    },
  };
}

export const TAB_FIELDS: Record<Tab, string[]> = {
  basic: ['firstName', 'lastName', 'email', 'phone', 'metadata.countryCode', 'metadata.dateOfBirth'],
  church: [
    'metadata.isChurchMember',
    'metadata.isBaptised',
    'metadata.isSeeker',
    'metadata.isServiceStaff',
    'metadata.staffRole',
    'metadata.wwccNumber',
    'metadata.notes',
  ],
  address: [
    'metadata.address',
    'metadata.city',
    'metadata.state',
    'metadata.country',
    'metadata.postalCode',
    'metadata.website',
  ],
  dependants: [],
};
