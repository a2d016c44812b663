import { describe, expect, it } from 'vitest';
import { todayIn } from './time-zone';

describe("a church's today", () => {
  it('is the date in the church time zone, not the browser', () => {
    // 10:30 UTC on Mar 10 is already Mar 11 at Kiritimati (UTC+14) and still Mar 9 at Pago Pago (UTC−11).
    const at = new Date('2026-03-10T10:30:00Z');
    expect(todayIn('Pacific/Kiritimati', at)).toBe('2026-03-11');
    expect(todayIn('Pacific/Pago_Pago', at)).toBe('2026-03-09');
    expect(todayIn('UTC', at)).toBe('2026-03-10');
    // Just before midnight in Chicago: the evening's date, though UTC has moved on.
    expect(todayIn('America/Chicago', new Date('2026-01-06T05:59:00Z'))).toBe('2026-01-05');
  });
});
