import type { RecurringFrequency } from '../../schemas/giving.js';

// Dates of recurring gifts, as 'YYYY-MM-DD' text (calendar days, no time zone).

const parse = (d: string) => {
  const [y, m, day] = d.split('-').map(Number);
  return { y: y!, m: m!, d: day! };
};
const fmt = (y: number, m: number, d: number) =>
  `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
export function addDays(date: string, n: number): string {
  const { y, m, d } = parse(date);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** The last date a recurring gift may start (or next charge) on: a year from `today`. */
export const lastStartDate = (today: string): string => nextChargeDate('yearly', today, today);

/** The first date a schedule charges: its start date, or for '1st and 15th' the next 1st or 15th. */
export function firstChargeDate(frequency: RecurringFrequency, startDate: string): string {
  if (frequency !== 'first_and_fifteenth') return startDate;
  const { y, m, d } = parse(startDate);
  if (d === 1 || d === 15) return startDate;
  if (d < 15) return fmt(y, m, 15);
  return m === 12 ? fmt(y + 1, 1, 1) : fmt(y, m + 1, 1);
}

/**
 * The date after `date` for a schedule that started on `startDate`: monthly and yearly keep the
 * start's day (the 31st is the month's last day in shorter months; 29 February is the 28th).
 */
export function nextChargeDate(frequency: RecurringFrequency, date: string, startDate: string): string {
  const { y, m, d } = parse(date);
  const start = parse(startDate);
  switch (frequency) {
    case 'weekly':
      return addDays(date, 7);
    case 'every_two_weeks':
      return addDays(date, 14);
    case 'first_and_fifteenth':
      return d < 15 ? fmt(y, m, 15) : m === 12 ? fmt(y + 1, 1, 1) : fmt(y, m + 1, 1);
    case 'monthly': {
      const [ny, nm] = m === 12 ? [y + 1, 1] : [y, m + 1];
      return fmt(ny, nm, Math.min(start.d, daysIn(ny, nm)));
    }
    case 'yearly':
      return fmt(y + 1, start.m, Math.min(start.d, daysIn(y + 1, start.m)));
  }
}
