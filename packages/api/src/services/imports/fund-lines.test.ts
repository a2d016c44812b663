import { describe, expect, it } from 'vitest';
import { readFundLines } from './fund-lines.js';
import { readBirthDate } from './values.js';

describe('a gift split between funds in one cell', () => {
  it('reads each fund’s share to the cent, thousands separators and refunds included', () => {
    expect(readFundLines('General (50.00), Missions (25.00)', 7500)).toEqual({
      ok: true,
      value: [
        { fund: 'General', amountCents: 5000 },
        { fund: 'Missions', amountCents: 2500 },
      ],
    });
    expect(readFundLines('Building (1,250.00), General ($50.00)', 130000)).toEqual({
      ok: true,
      value: [
        { fund: 'Building', amountCents: 125000 },
        { fund: 'General', amountCents: 5000 },
      ],
    });
    expect(readFundLines('General (-50.00), Missions ((25.00))', -7500)).toEqual({
      ok: true,
      value: [
        { fund: 'General', amountCents: -5000 },
        { fund: 'Missions', amountCents: -2500 },
      ],
    });
    expect(readFundLines('Missions, Local (10.00), General (5.00)', 1500)).toEqual({
      ok: true,
      value: [
        { fund: 'Missions, Local', amountCents: 1000 },
        { fund: 'General', amountCents: 500 },
      ],
    });
  });

  it('leaves a plain fund name alone, brackets in the name included', () => {
    expect(readFundLines('General', 5000)).toBeNull();
    expect(readFundLines('Youth (2024)', 5000)).toBeNull();
    expect(readFundLines('Youth (summer camp)', 5000)).toBeNull();
    expect(readFundLines('General (50.00)', 5000)).toEqual({
      ok: true,
      value: [{ fund: 'General', amountCents: 5000 }],
    });
  });

  it('refuses a decimal comma and mixed signs, naming the fund', () => {
    expect(readFundLines('General (12,50), Missions (5.00)', 1750)).toEqual({
      ok: false,
      reason: "General: '12,50' uses a decimal comma; this file is read as US, so write it as 12.50",
    });
    expect(readFundLines('General (100.00), Missions (-25.00)', 7500)).toMatchObject({ ok: false });
  });
});

describe('a birth date as ChurchCRM writes it', () => {
  it('reads unpadded dates, and knows an unknown one and one without its year', () => {
    expect(readBirthDate('1980-4-2')).toEqual({ ok: true, value: { date: '1980-04-02', yearless: false } });
    expect(readBirthDate('-')).toEqual({ ok: true, value: { date: null, yearless: false } });
    expect(readBirthDate('0-0')).toEqual({ ok: true, value: { date: null, yearless: false } });
    expect(readBirthDate('1980-0-0')).toEqual({ ok: true, value: { date: null, yearless: false } });
    expect(readBirthDate('4-12')).toEqual({ ok: true, value: { date: null, yearless: true } });
    expect(readBirthDate('13-40').ok).toBe(false);
  });
});
