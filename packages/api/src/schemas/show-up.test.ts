import { describe, expect, it } from 'vitest';
import { hasAtMostTwoDecimals, progressPercent, toCents, websiteLabel } from '../shared/show-up.js';

describe('toCents', () => {
  it('gives whole cents without float error', () => {
    expect(toCents(19.99)).toBe(1999);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(1.005 * 100)).toBe(10050);
    expect(toCents(25)).toBe(2500);
    expect(toCents(0.5)).toBe(50);
    expect(toCents(99_999_999.99)).toBe(9_999_999_999);
  });
});

describe('hasAtMostTwoDecimals', () => {
  it('accepts 2 decimals and refuses 3', () => {
    expect(hasAtMostTwoDecimals(12.5)).toBe(true);
    expect(hasAtMostTwoDecimals(0.07)).toBe(true);
    expect(hasAtMostTwoDecimals(12.345)).toBe(false);
  });
});

describe('progressPercent', () => {
  it('rounds, caps at 100 and is 0 when not a number', () => {
    expect(progressPercent(333, 1000)).toBe(33);
    expect(progressPercent(2500, 1000)).toBe(100);
    expect(progressPercent(0, 0)).toBe(0);
    expect(progressPercent(5, 0)).toBe(0);
    expect(progressPercent(Number.NaN, 10)).toBe(0);
  });
});

describe('websiteLabel', () => {
  it('drops the protocol', () => {
    expect(websiteLabel('https://grace.example.org/')).toBe('grace.example.org');
    expect(websiteLabel('http://example.org/give')).toBe('example.org/give');
  });
});
