import { parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * The phone in E.164 (+61412345678), reading it in `countryCode` (such as '+61': the contact's
 * country, else the church's default country) unless it starts with '+'. Null when it cannot be a
 * phone number, so SMS skips it. The country is required: no path may silently assume one.
 */
export function toE164(phone: string | null | undefined, countryCode: string): string | null {
  if (!phone) return null;
  const cleaned = phone.trim();
  const parsed = cleaned.startsWith('+')
    ? parsePhoneNumberFromString(cleaned)
    : parsePhoneNumberFromString(cleaned, { defaultCallingCode: countryCode.replace(/^\+/, '') });
  if (!parsed || !parsed.isPossible()) return null;
  return parsed.number;
}
