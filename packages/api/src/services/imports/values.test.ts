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

  it('reads a plainly written amount as the long way does (a space before it takes the long way)', () => {
    const plain = ['0', '0.00', '5', '5.', '.5', '007.5', '75.05', '75.5', '75.555', '20000000', '20000000.01'];
    const more = ['999999999', '999999999.99', '1234567890', '1,234.56', '12,50', '1e3', '5 ', '٣'];
    for (const s of [...plain, ...more]) expect({ s, read: readAmount(s) }).toEqual({ s, read: readAmount(` ${s}`) });
    expect(readAmount('20000000')).toEqual({ ok: true, value: 2_000_000_000 });
    expect(readAmount('20000000.01')).toEqual({ ok: false, reason: "'20000000.01' is too large" });
  });

  it('reads a date written 2024-03-15 as the calendar has it, with or without a time', () => {
    const pad = (n: number, w: number) => String(n).padStart(w, '0');
    for (const y of [50, 99, 100, 999, 1900, 1999, 2000, 2023, 2024, 2100, 9999])
      for (let m = 0; m <= 13; m++)
        for (let d = 0; d <= 32; d++) {
          const date = new Date(Date.UTC(y, m - 1, d));
          const real = date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
          const s = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
          const want = real ? { ok: true, value: s } : { ok: false, reason: expect.stringContaining('is not a date') };
          expect({ s, read: readDate(s) }).toEqual({ s, read: want });
          expect({ s, read: readDate(`${s} 10:00:00 UTC`) }).toEqual({ s, read: real ? want : expect.anything() });
        }
    expect(readDate('2024-3-5')).toEqual({ ok: true, value: '2024-03-05' });
    expect(readDate('2024-03-15T')).toEqual({ ok: true, value: '2024-03-15' });
    expect(readDate('2024-03-15x').ok).toBe(false);
    expect(readDate('2024-03-15 10:00\n11:00').ok).toBe(false);
    expect(readDate('2024-03-15 10:00\u2028 UTC').ok).toBe(false);
  });

  it('maps payment methods onto the ledger’s', () => {
    expect(readMethod('Check')).toBe('check');
    expect(readMethod('Credit/Debit Online')).toBe('card');
    expect(readMethod('Cash')).toBe('cash');
    expect(readMethod('ACH')).toBe('other');
  });
});
