import { describe, expect, it } from 'vitest';
import { safeCell } from './export.js';
import { unescapeCell } from './import.js';

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
