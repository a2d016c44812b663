import { describe, expect, it } from 'vitest';
import { formatE164, formatPhone } from '../render/phone.js';
import {
  callingCodeOf,
  callingCodeOptions,
  churchLocale,
  countryFromLanguages,
  countryFromTimeZone,
  countryOfCallingCode,
  countryOptions,
  firstDayOfWeek,
  guessCountry,
} from './locale.js';
import {
  formatBirthday,
  formatDate,
  formatDateTime,
  formatDayAndTime,
  formatLongDate,
  formatMoney,
  formatTime,
  formatWallTime,
} from './format.js';

describe('the country from the time zone', () => {
  it('reads the country a zone lies in, old names too', () => {
    expect(countryFromTimeZone('America/Chicago')).toBe('US');
    expect(countryFromTimeZone('Australia/Sydney')).toBe('AU');
    expect(countryFromTimeZone('America/Toronto')).toBe('CA');
    expect(countryFromTimeZone('Europe/London')).toBe('GB');
    expect(countryFromTimeZone('Pacific/Auckland')).toBe('NZ');
    expect(countryFromTimeZone('Asia/Calcutta')).toBe('IN');
    expect(countryFromTimeZone('US/Central')).toBe('US');
    expect(countryFromTimeZone('UTC')).toBeUndefined();
    expect(countryFromTimeZone(undefined)).toBeUndefined();
  });

  it("falls back to the browser's language, then the US", () => {
    expect(countryFromLanguages(['en', 'en-AU'])).toBe('AU');
    expect(countryFromLanguages(['not a tag', 'pt-BR'])).toBe('BR');
    expect(countryFromLanguages(['en'])).toBeUndefined();
    expect(guessCountry({ timeZone: 'America/Chicago', languages: ['en-AU'] })).toBe('US');
    expect(guessCountry({ timeZone: 'UTC', languages: ['en-GB'] })).toBe('GB');
    expect(guessCountry({ timeZone: 'UTC', languages: [] })).toBe('US');
  });

  it('offers every country with its calling code, and every calling code', () => {
    const countries = countryOptions();
    expect(countries.length).toBeGreaterThan(230);
    expect(countries).toContainEqual({ value: 'AU', label: 'Australia (+61)' });
    expect(countries).toContainEqual({ value: 'US', label: 'United States (+1)' });
    expect(countries).toContainEqual({ value: 'DE', label: 'Germany (+49)' });
    expect(callingCodeOf('AU')).toBe('+61');
    expect(callingCodeOf('CA')).toBe('+1');
    expect(countryOfCallingCode('+1')).toBe('US');
    expect(countryOfCallingCode('+1', 'CA')).toBe('CA');
    expect(countryOfCallingCode('+44', 'AU')).toBe('GB');
    const codes = callingCodeOptions();
    expect(new Set(codes.map((c) => c.value)).size).toBe(codes.length);
    expect(codes.find((c) => c.value === '+61')!.label).toMatch(/^\+61 Australia/);
    expect(callingCodeOptions('CA').find((c) => c.value === '+1')!.label).toMatch(/^\+1 Canada and \d+ more$/);
  });

  it("writes in the country's English, its clock and its first day of the week", () => {
    expect(churchLocale('US')).toBe('en-US');
    expect(churchLocale('AU')).toBe('en-AU');
    expect(churchLocale('GB')).toBe('en-GB');
    expect(churchLocale(null)).toBe('en-US');
    // No English of Brazil in the runtime: international English, with Brazil's 24-hour clock.
    expect(formatWallTime('21:05', { locale: churchLocale('BR') })).toBe('21:05');
    expect(firstDayOfWeek('US')).toBe(0);
    expect(firstDayOfWeek('AU')).toBe(1);
    expect(firstDayOfWeek('AE')).toBe(6);
  });
});

describe('dates, times and phones as a church writes them', () => {
  const us = { locale: churchLocale('US'), timeZone: 'America/Chicago' };
  const au = { locale: churchLocale('AU'), timeZone: 'Australia/Sydney' };
  // 15:00 UTC on Dec 6: 9:00 AM in Chicago on the 6th, 2:00 AM in Sydney on the 7th.
  const at = '2026-12-06T15:00:00.000Z';

  it("keeps the spec's US formats", () => {
    expect(formatDate(at, us)).toBe('Dec 6, 2026');
    expect(formatTime(at, us)).toBe('9:00 AM');
    expect(formatDateTime(at, us)).toBe('Dec 6, 2026, 9:00 AM');
    expect(formatBirthday('1980-12-07', us)).toBe('December 7');
    expect(formatLongDate('2026-12-07', us)).toBe('Monday, December 7, 2026');
    expect(formatDayAndTime('2026-12-06', '09:00', us)).toBe('Sunday, December 6 at 9:00 AM');
    expect(formatMoney(123450, us)).toBe('$1,234.50');
  });

  it('writes day first in Australia, in its own time zone', () => {
    expect(formatDate(at, au)).toBe('7 Dec 2026');
    expect(formatTime(at, au)).toBe('2:00 am');
    expect(formatBirthday('1980-12-07', au)).toBe('7 December');
    expect(formatDayAndTime('2026-12-06', '09:00', au)).toBe('Sunday 6 December at 9:00 am');
    expect(formatMoney(123450, au)).toBe('$1,234.50');
  });

  it('never shifts a calendar date by a time zone, and writes nothing for no date', () => {
    expect(formatDate('2026-12-07', { ...us, timeZone: 'Pacific/Kiritimati' })).toBe('Dec 7, 2026');
    expect(formatDate(null, us)).toBe('');
    expect(formatDate('not a date', us)).toBe('');
    expect(formatWallTime('oops', us)).toBe('');
  });

  it("writes a phone of the church's country nationally, another internationally", () => {
    expect(formatE164('+12175550109', callingCodeOf('US'))).toBe('(217) 555-0109');
    expect(formatE164('+12175550109', callingCodeOf('AU'))).toBe('+1 217 555 0109');
    expect(formatE164('+61412000111', callingCodeOf('AU'))).toBe('0412 000 111');
    // A team member's phone as typed: read in the church's country.
    expect(formatPhone({ phone: '2175550109', phoneE164: null }, '+1')).toBe('(217) 555-0109');
    expect(formatPhone({ phone: '0412000111', phoneE164: null }, '+61')).toBe('0412 000 111');
    expect(formatPhone({ phone: 'call the office', phoneE164: null }, '+61')).toBe('call the office');
  });
});
