import { describe, expect, it } from 'vitest';
import { firstChargeDate, nextChargeDate } from './dates.js';
import { coverFeeCents } from '../../shared/giving.js';

describe('recurring gift dates', () => {
  it('weekly and every two weeks count days across months and years', () => {
    expect(nextChargeDate('weekly', '2026-12-29', '2026-12-29')).toBe('2027-01-05');
    expect(nextChargeDate('every_two_weeks', '2027-02-20', '2027-02-20')).toBe('2027-03-06');
  });

  it("monthly keeps the start's day; the 31st is the last day of shorter months", () => {
    const dates = ['2027-01-31'];
    for (let i = 0; i < 4; i++) dates.push(nextChargeDate('monthly', dates.at(-1)!, '2027-01-31'));
    expect(dates).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31']);
    expect(nextChargeDate('monthly', '2027-12-15', '2027-12-15')).toBe('2028-01-15');
  });

  it('1st and 15th starts at the next 1st or 15th and alternates', () => {
    expect(firstChargeDate('first_and_fifteenth', '2027-03-03')).toBe('2027-03-15');
    expect(firstChargeDate('first_and_fifteenth', '2027-12-20')).toBe('2028-01-01');
    expect(firstChargeDate('first_and_fifteenth', '2027-03-01')).toBe('2027-03-01');
    expect(nextChargeDate('first_and_fifteenth', '2027-03-15', '2027-03-15')).toBe('2027-04-01');
    expect(nextChargeDate('first_and_fifteenth', '2027-04-01', '2027-03-15')).toBe('2027-04-15');
    expect(firstChargeDate('monthly', '2027-03-03')).toBe('2027-03-03');
  });

  it('yearly from 29 February is the 28th in other years, and the 29th again in a leap year', () => {
    expect(nextChargeDate('yearly', '2028-02-29', '2028-02-29')).toBe('2029-02-28');
    expect(nextChargeDate('yearly', '2031-02-28', '2028-02-29')).toBe('2032-02-29');
  });

  it('a year of weekly gifts is 52 or 53 dates', () => {
    let d = '2027-01-01';
    let n = 0;
    while (d < '2028-01-01') {
      n++;
      d = nextChargeDate('weekly', d, '2027-01-01');
    }
    expect(n).toBe(53);
  });
});

describe('covering the card fee', () => {
  it('grosses up in whole cents so the church receives the gift (2.9% + 30¢)', () => {
    expect(coverFeeCents(4000)).toBe(151);
    expect(coverFeeCents(50)).toBe(33);
    // The charge less Stripe's fee on it (rounded as Stripe does) leaves at least the gift.
    for (const cents of [50, 999, 2500, 10000, 123457]) {
      const total = cents + coverFeeCents(cents);
      expect(total - Math.round(total * 0.029) - 30).toBeGreaterThanOrEqual(cents);
    }
    expect(coverFeeCents(10000, { percentBasisPoints: 0, fixedCents: 0 })).toBe(0);
  });
});
