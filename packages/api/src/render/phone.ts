import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { countryOfCallingCode } from '../shared/locale.js';

/**
 * A phone as a person reads it, from its E.164 number: the national format when the number is in
 * the church's default country ('+61' → '0412 000 111'), the international one otherwise
 * ('+64 21 123 4567'). A phone without an E.164 (a team member's, as typed) is read in the
 * church's country; one that is not a possible number shows as it was typed. The contact's
 * country code is never glued in front of the typed number. The one phone formatter of the
 * server's renderers and the web app (`@lampstand/api/render/phone`).
 */
export function formatPhone(
  contact: { phone: string | null; phoneE164: string | null },
  churchCountryCode: string | null | undefined,
): string {
  const typed = contact.phone?.trim() ?? '';
  const country = churchCountryCode ? countryOfCallingCode(churchCountryCode) : undefined;
  const parsed = contact.phoneE164
    ? parsePhoneNumberFromString(contact.phoneE164)
    : typed && country
      ? parsePhoneNumberFromString(typed, country as CountryCode)
      : undefined;
  if (!parsed?.isPossible()) return typed || (contact.phoneE164 ?? '');
  return `+${parsed.countryCallingCode}` === churchCountryCode ? parsed.formatNational() : parsed.formatInternational();
}

/** A number kept in E.164 alone (a conversation's, a sender's) as a person reads it: '(217) 555-0109'. */
export function formatE164(e164: string | null | undefined, churchCountryCode: string | null | undefined): string {
  return e164 ? formatPhone({ phone: e164, phoneE164: e164 }, churchCountryCode) : '';
}
