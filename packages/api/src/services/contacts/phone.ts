import { parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * The phone in E.164 (+61412345678), reading it in the contact's country (countryCode such as
 * '+61') unless it starts with '+'. Null when it cannot be a phone number, so SMS skips it.
 */
export function toE164(phone: string | null | undefined, countryCode = '+61'): string | null {
  if (!phone) return null;
  const cleaned = phone.trim();
  const parsed = cleaned.startsWith('+')
    ? parsePhoneNumberFromString(cleaned)
    : parsePhoneNumberFromString(cleaned, { defaultCallingCode: countryCode.replace(/^\+/, '') });
  if (!parsed || !parsed.isPossible()) return null;
  return parsed.number;
}
