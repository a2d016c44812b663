import { describe, expect, it } from 'vitest';
import { localDate, nextWeekdayAt, quietHoursEnd, zonedInstant } from './time.js';

describe('church time for journeys', () => {
  it('finds the instant of a wall-clock time, also across a daylight-saving change', () => {
    expect(zonedInstant('America/New_York', 2026, 7, 1, 9, 0).toISOString()).toBe('2026-07-01T13:00:00.000Z');
    expect(zonedInstant('America/New_York', 2026, 12, 1, 9, 0).toISOString()).toBe('2026-12-01T14:00:00.000Z');
    // 8 March 2026: clocks go forward at 2:00 in New York.
    expect(zonedInstant('America/New_York', 2026, 3, 8, 8, 0).toISOString()).toBe('2026-03-08T12:00:00.000Z');
  });

  it('holds texts between 21:00 and 8:00', () => {
    // 20:59 in New York: not quiet.
    expect(quietHoursEnd(new Date('2026-12-02T01:59:00Z'), 'America/New_York')).toBeNull();
    // 21:00: until 8:00 the next morning.
    expect(quietHoursEnd(new Date('2026-12-02T02:00:00Z'), 'America/New_York')?.toISOString()).toBe(
      '2026-12-02T13:00:00.000Z',
    );
    // 7:59: until 8:00 the same morning.
    expect(quietHoursEnd(new Date('2026-12-02T12:59:00Z'), 'America/New_York')?.toISOString()).toBe(
      '2026-12-02T13:00:00.000Z',
    );
    expect(quietHoursEnd(new Date('2026-12-02T13:00:00Z'), 'America/New_York')).toBeNull();
  });

  it('waits until the next weekday and time, strictly after now', () => {
    // Tuesday 1 December 2026, 10:00 in Sydney (UTC+11).
    const now = new Date('2026-11-30T23:00:00Z');
    expect(nextWeekdayAt(now, 'Australia/Sydney', 2, '09:30').toISOString()).toBe('2026-12-07T22:30:00.000Z');
    expect(nextWeekdayAt(now, 'Australia/Sydney', 2, '10:30').toISOString()).toBe('2026-11-30T23:30:00.000Z');
    expect(nextWeekdayAt(now, 'Australia/Sydney', 0, '09:00').toISOString()).toBe('2026-12-05T22:00:00.000Z');
  });

  it('gives due dates in the church time zone', () => {
    // 23:30 UTC on 1 December is already 2 December in Sydney.
    expect(localDate(new Date('2026-12-01T23:30:00Z'), 'Australia/Sydney', 2)).toBe('2026-12-04');
    expect(localDate(new Date('2026-12-31T12:00:00Z'), 'UTC', 1)).toBe('2027-01-01');
  });
});
