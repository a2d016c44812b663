import { parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * A phone as a person reads it, from its E.164 number: the national format when the number is in
 * the church's default country ('+61' → '0412 000 111'), the international one otherwise
 * ('+64 21 123 4567'). A phone that is not a possible number (no E.164) shows as it was typed. The
 * contact's country code is never glued in front of the typed number. Shared by the server and
 * the web app (`@lampstand/api/render/phone`).
 */
export function formatPhone(
  contact: { phone: string | null; phoneE164: string | null },
  churchCountryCode: string | null | undefined,
): string {
  const typed = contact.phone?.trim() ?? '';
  const parsed = contact.phoneE164 ? parsePhoneNumberFromString(contact.phoneE164) : undefined;
  if (!parsed) return typed;
  return `+${parsed.countryCallingCode}` === churchCountryCode ? parsed.formatNational() : parsed.formatInternational();
}
