import { describe, expect, it } from 'vitest';
import { readAmount, readDate, readMethod } from './values.js';

describe('reading an export’s cells', () => {
  it('reads US amounts to the cent, refunds as negative, and refuses a decimal comma', () => {
    expect(readAmount('1,250.00')).toEqual({ ok: true, value: 125000 });
    expect(readAmount('$2,000')).toEqual({ ok: true, value: 200000 });
    expect(readAmount('75.5')).toEqual({ ok: true, value: 7550 });
    expect(readAmount('-75.50')).toEqual({ ok: true, value: -7550 });
    expect(readAmount('($25.00)')).toEqual({ ok: true, value: -2500 });
    expect(readAmount('12,50')).toEqual({
      ok: false,
      reason: "'12,50' uses a decimal comma; this file is read as US, so write it as 12.50",
    });
    expect(readAmount('1,25.00').ok).toBe(false);
    expect(readAmount('ten').ok).toBe(false);
    expect(readAmount('0.00').ok).toBe(false);
  });

  it('reads ISO, US and written dates, and refuses impossible ones', () => {
    expect(readDate('2024-03-15 10:00:00 UTC')).toEqual({ ok: true, value: '2024-03-15' });
    expect(readDate('2024-03-15T10:00:00Z')).toEqual({ ok: true, value: '2024-03-15' });
    expect(readDate('03/15/2024')).toEqual({ ok: true, value: '2024-03-15' });
    expect(readDate('3/5/24')).toEqual({ ok: true, value: '2024-03-05' });
    expect(readDate('Jan 2, 1950')).toEqual({ ok: true, value: '1950-01-02' });
    expect(readDate('')).toEqual({ ok: true, value: null });
    expect(readDate('31/31/2020').ok).toBe(false);
    expect(readDate('2023-02-29').ok).toBe(false);
  });

  it('maps payment methods onto the ledger’s', () => {
    expect(readMethod('Check')).toBe('check');
    expect(readMethod('Credit/Debit Online')).toBe('card');
    expect(readMethod('Cash')).toBe('cash');
    expect(readMethod('ACH')).toBe('other');
  });
});
