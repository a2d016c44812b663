import type { ContactMetadata, ImportSkip } from '@lampstand/db';
import { type ImportField } from '../../schemas/contact-imports.js';
import { contactFieldsSchema, countryCodeSchema, staffRoleSchema } from '../../schemas/contacts.js';
import { isIsoDate } from '../../shared/dates.js';
import { dmyToIso } from '../../shared/contacts.js';
import type { CountryCode } from '../settings/church-settings.js';
import { toE164 } from './phone.js';
import { unescapeCell } from './import-csv.js';

const TRUE = new Set(['yes', 'y', 'true', '1', 'x', 'member', 'baptised', 'baptized']);
const FALSE = new Set(['no', 'n', 'false', '0', '']);
const UNSUBSCRIBED = new Set([
  'unsubscribed',
  'no',
  'n',
  'false',
  '0',
  'opted out',
  'opt out',
  'optout',
  'unsubscribe',
]);
const emailSchema = contactFieldsSchema.shape.email;

/** One row of an import's file as a contact to create or update. */
export interface Candidate {
  line: number;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  phoneE164: string | null;
  dateOfBirth: string | null;
  tags: string[] | null;
  /** The household column's value (rows with the same one become a family), or null. */
  household: string | null;
  metadata: Partial<ContactMetadata>;
  emailUnsubscribed: boolean;
  smsUnsubscribed: boolean;
}

/** One CSV row to a contact, or the reason it is skipped (the spec's messages). */
export function rowToCandidate(
  line: number,
  cells: string[],
  headers: string[],
  mapping: Record<string, ImportField>,
  churchCountry: CountryCode,
): Candidate | ImportSkip {
  const v: Partial<Record<ImportField, string>> = {};
  headers.forEach((h, i) => {
    const f = mapping[h];
    if (f) v[f] = unescapeCell((cells[i] ?? '').trim());
  });
  const firstName = v.firstName ?? '';
  const lastName = v.lastName ?? '';
  if (!firstName) return { line, reason: 'First name is required' };
  if (!lastName) return { line, reason: 'Last name is required' };
  const email = v.email ? v.email : null;
  if (email && !emailSchema.safeParse(email).success)
    return { line, reason: `Please enter a valid email address: '${email}'` };
  const phone = v.phone ? v.phone : null;
  if (phone && phone.length < 4) return { line, reason: `Please enter a valid phone number: '${phone}'` };
  if (!email && !phone) return { line, reason: 'No email address or phone number' };
  const cc = v.countryCode ? (v.countryCode.startsWith('+') ? v.countryCode : `+${v.countryCode}`) : undefined;
  const countryCode = cc && countryCodeSchema.safeParse(cc).success ? cc : undefined;
  const metadata: Partial<ContactMetadata> = {};
  // A row without a (known) country is read in the church's default country, and stored with it.
  if (countryCode) metadata.countryCode = countryCode;
  else if (phone) metadata.countryCode = churchCountry;
  const bool = (x: string | undefined) =>
    x === undefined ? undefined : TRUE.has(x.toLowerCase()) ? true : FALSE.has(x.toLowerCase()) ? false : undefined;
  for (const key of ['isChurchMember', 'isBaptised', 'isSeeker', 'isServiceStaff'] as const) {
    const b = bool(v[key]);
    if (b !== undefined) metadata[key] = b;
  }
  for (const key of ['notes', 'wwccNumber', 'website', 'address', 'city', 'state', 'country', 'postalCode'] as const) {
    if (v[key]) metadata[key] = v[key]!;
  }
  if (v.staffRole) {
    const role = v.staffRole
      .toLowerCase()
      .replace(/[\s-]+/g, '_')
      .replace(/'/g, '');
    const parsed = staffRoleSchema.safeParse(role === 'administrative_staff' ? 'admin' : role);
    if (parsed.success) metadata.staffRole = parsed.data;
  }
  let dateOfBirth: string | null = null;
  if (v.dateOfBirth) dateOfBirth = isIsoDate(v.dateOfBirth) ? v.dateOfBirth : dmyToIso(v.dateOfBirth);
  const tags = v.tags
    ? v.tags
        .split(/[;,|]/)
        .map((t) => t.trim())
        .filter(Boolean)
    : null;
  return {
    line,
    firstName,
    lastName,
    email,
    phone,
    phoneE164: toE164(phone, countryCode ?? churchCountry),
    dateOfBirth,
    tags,
    household: v.household ? v.household : null,
    metadata,
    emailUnsubscribed: v.emailConsent !== undefined && UNSUBSCRIBED.has(v.emailConsent.toLowerCase()),
    smsUnsubscribed: v.smsConsent !== undefined && UNSUBSCRIBED.has(v.smsConsent.toLowerCase()),
  };
}

/** An import being worked on: what its steps need to know of it. */
