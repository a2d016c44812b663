import { describe, expect, it } from 'vitest';
import { formatDate, formatIn, formatTime } from './format';

describe('dates in the church time zone', () => {
  it('reads an instant in the given zone, not the browser', () => {
    // 02:30 UTC on Jan 6 is still the evening of Jan 5 in Chicago.
    const at = '2025-01-06T02:30:00.000Z';
    expect(formatTime(at, 'America/Chicago')).toBe('8:30 PM');
    expect(formatDate(at, 'America/Chicago')).toBe('Jan 5, 2025');
    expect(formatIn(at, 'MMM', 'America/Chicago')).toBe('Jan');
    expect(formatIn(at, 'D', 'America/Chicago')).toBe('5');
    expect(formatIn(at, 'D', 'Asia/Tokyo')).toBe('6');
    expect(formatIn('not a date', 'D', 'UTC')).toBe('');
  });
});
