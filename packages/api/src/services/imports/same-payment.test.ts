import { describe, expect, it } from 'vitest';
import { fileTotals, readGifts } from './read.js';
import { SOURCES } from './sources.js';

const pc = SOURCES.find((s) => s.id === 'planning-center-donations')!;
const HEAD = 'Donation ID,Person ID,First Name,Last Name,Email,Received At,Fund,Amount,Payment Method,Check Number';

describe('rows of one payment', () => {
  it('joins the rows of one donation id into one gift with a line per fund, to the cent', async () => {
    const csv = [
      HEAD,
      'D1,1001,José,Muñoz,jose@example.org,2024-01-07 10:00:00 UTC,General Fund,"1,250.00",check,1042',
      'D1,1001,José,Muñoz,jose@example.org,2024-01-07 10:00:00 UTC,Missions,50.25,check,1042',
      'D1,1001,José,Muñoz,jose@example.org,2024-01-07 10:00:00 UTC,general fund,10.00,check,1042',
      'D2,1002,Zoë,Lind,zoe@example.org,2024-02-01,Missions,20.00,card,',
    ].join('\n');
    const file = await readGifts(csv, pc);
    expect(file.problems).toEqual([]);
    expect(file.items).toHaveLength(2);
    const [d1] = file.items;
    expect(d1!.amountCents).toBe(131_025);
    expect(d1!.lines).toEqual([
      { fund: 'General Fund', amountCents: 126_000 },
      { fund: 'Missions', amountCents: 5_025 },
    ]);
    expect(fileTotals(file.items).map((t) => [t.fund, t.cents])).toEqual([
      ['General Fund', 126_000],
      ['Missions', 7_025],
    ]);
  });

  it('names the line and column of a second row under one id with another donor or date, and leaves it out', async () => {
    const csv = [
      HEAD,
      'D1,1001,José,Muñoz,jose@example.org,2024-01-07,General Fund,25.00,card,',
      'D1,1002,Zoë,Lind,zoe@example.org,2024-01-07,General Fund,30.00,card,',
      'D1,1001,José,Muñoz,jose@example.org,2024-01-08,General Fund,35.00,card,',
    ].join('\n');
    const file = await readGifts(csv, pc);
    expect(file.items.map((g) => g.amountCents)).toEqual([2_500]);
    expect(file.problems).toEqual([
      {
        line: 3,
        column: 'Donation ID',
        reason: expect.stringMatching(/^The id D1 is also on line 2, with another donor/),
      },
      { line: 4, column: 'Donation ID', reason: expect.stringMatching(/^The id D1 is also on line 2/) },
    ]);
  });
});
