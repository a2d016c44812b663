import { describe, expect, it } from 'vitest';
import { csvCell, phoneCell, safeCell, toCsv } from './csv.js';
import { unescapeCell } from '../services/contacts/import-csv.js';

describe('CSV formula guard', () => {
  it.each([
    "-2+3+cmd|' /C calc'!A0",
    '-1+1',
    '+1-1',
    '-(1)+1',
    '+1+1',
    '=HYPERLINK("x")',
    '@SUM(A1)',
    '\t=1',
    '\r=1',
    '+61400000000',
  ])('prefixes %j', (v) => {
    expect(safeCell(v)).toBe(`'${v}`);
  });
  it.each(['Ann', '0400 000 000', '42', "O'Brien", ''])('leaves %j alone', (v) => {
    expect(safeCell(v)).toBe(v);
  });
  it('the importer reads an exported cell back as it was', () => {
    for (const v of ['+61400000000', '-1+1', '=x', '@y', 'plain']) expect(unescapeCell(safeCell(v))).toBe(v);
  });
});

describe('the CSV writer', () => {
  it('writes dates as ISO 8601 in UTC, numbers as numbers, nothing for null, and guards text', () => {
    expect(csvCell(new Date(Date.UTC(2026, 10, 25, 9, 5, 7)))).toBe('2026-11-25T09:05:07.000Z');
    expect(csvCell(-12.5)).toBe('-12.5');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(true)).toBe('yes');
    expect(csvCell("-1+1+cmd|' /C calc'!A0")).toBe("'-1+1+cmd|' /C calc'!A0");
  });
  it("writes a phone column's E.164 number or calling code bare, and guards anything else in it", () => {
    expect(csvCell(phoneCell('+61412000111'))).toBe('+61412000111');
    expect(csvCell(phoneCell('+61'))).toBe('+61');
    expect(csvCell(phoneCell('0412 000 111'))).toBe('0412 000 111');
    expect(csvCell(phoneCell(null))).toBe('');
    // Not a + followed by digits only: guarded as text.
    for (const v of ['+61 412 000 111', '+1+1', "-1+1+cmd|' /C calc'!A0", '=1', '+1234567890123456'])
      expect(csvCell(phoneCell(v))).toBe(`'${v}`);
  });
  it('quotes what needs quoting, one row a line', () => {
    expect(
      toCsv([
        ['a,b', 'say "hi"', 'line\nbreak'],
        ['=1', 2, null],
      ]),
    ).toBe(`"a,b","say ""hi""","line\nbreak"\n'=1,2,\n`);
  });
});
