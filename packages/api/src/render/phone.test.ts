import { describe, expect, it } from 'vitest';
import { toE164 } from '../services/contacts/phone.js';
import { formatPhone } from './phone.js';

/** A contact as stored: the typed phone and its E.164 read in the contact's country code. */
const contact = (phone: string | null, countryCode = '+61') => ({ phone, phoneE164: toE164(phone, countryCode) });

describe('formatPhone', () => {
  it("shows a number of the church's country in national format, however it was typed", () => {
    expect(formatPhone(contact('0412 000 111'), '+61')).toBe('0412 000 111');
    expect(formatPhone(contact('+61 412 000 555'), '+61')).toBe('0412 000 555');
    expect(formatPhone(contact('0412000555'), '+61')).toBe('0412 000 555');
    expect(formatPhone(contact('(201) 555-0123', '+1'), '+1')).toBe('(201) 555-0123');
  });

  it('shows a number of another country in international format', () => {
    expect(formatPhone(contact('0412 000 111'), '+1')).toBe('+61 412 000 111');
    expect(formatPhone(contact('021 123 4567', '+64'), '+61')).toBe('+64 21 123 4567');
    expect(formatPhone(contact('+44 7700 900123'), '+61')).toBe('+44 7700 900123');
    // Before the church's settings have loaded: international, never a glued country code.
    expect(formatPhone(contact('0412 000 111'), undefined)).toBe('+61 412 000 111');
  });

  it('never glues the country code to a typed number', () => {
    for (const typed of ['0412 000 111', '+61 412 000 555', '+61412000555'])
      for (const church of ['+61', '+1', undefined])
        expect(formatPhone(contact(typed), church)).not.toMatch(/\+61 0|\+61 \+61/);
  });

  it('shows a phone that is not a possible number as typed, and nothing for none', () => {
    expect(formatPhone(contact(' ext 12 '), '+61')).toBe('ext 12');
    expect(formatPhone(contact(null), '+61')).toBe('');
    expect(formatPhone({ phone: '', phoneE164: null }, '+61')).toBe('');
  });
});
