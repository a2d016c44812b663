import { describe, expect, it } from 'vitest';
import { smsKeyword, smsSegments, smsSegmentsOfMessage } from '../shared/sms.js';

describe('smsSegments', () => {
  it('GSM-7: 160 in one segment, then 153 per segment; minimum 1', () => {
    expect(smsSegments('')).toMatchObject({ segments: 1, encoding: 'GSM-7', characters: 0 });
    expect(smsSegments('a'.repeat(160))).toMatchObject({ segments: 1, encoding: 'GSM-7', units: 160 });
    expect(smsSegments('a'.repeat(161))).toMatchObject({ segments: 2, perSegment: 153 });
    expect(smsSegments('a'.repeat(306))).toMatchObject({ segments: 2 });
    expect(smsSegments('a'.repeat(307))).toMatchObject({ segments: 3 });
  });

  it('extension characters take two septets', () => {
    expect(smsSegments('€'.repeat(80))).toMatchObject({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsSegments('€'.repeat(81))).toMatchObject({ units: 162, segments: 2 });
    expect(smsSegments('Ünïcode café')).toMatchObject({ encoding: 'UCS-2' }); // ï is not GSM-7
    expect(smsSegments('Übung café')).toMatchObject({ encoding: 'GSM-7' }); // Ü and é are
  });

  it('anything else makes it UCS-2: 70, then 67 per segment; an emoji counts two units', () => {
    expect(smsSegments('Hi 🙏')).toMatchObject({ encoding: 'UCS-2', characters: 4, units: 5, segments: 1 });
    expect(smsSegments('ж'.repeat(70))).toMatchObject({ encoding: 'UCS-2', segments: 1 });
    expect(smsSegments('ж'.repeat(71))).toMatchObject({ segments: 2, perSegment: 67 });
    expect(smsSegments('ж'.repeat(135))).toMatchObject({ segments: 3 });
  });
});

describe('smsSegmentsOfMessage', () => {
  it('counts merge tags at a typical length and the church name as it is', () => {
    // 150 letters + ' ' + a 7-letter first name = 158: one text; the raw tag alone would be 164.
    const text = `${'a'.repeat(150)} {{firstName}}`;
    expect(smsSegments(text).segments).toBe(2);
    expect(smsSegmentsOfMessage(text, 'Grace').segments).toBe(1);
    expect(smsSegmentsOfMessage(`${'a'.repeat(150)} {{churchName}}`, 'St Bartholomew the Great').segments).toBe(2);
    expect(smsSegmentsOfMessage('Hi {{ lastName }}', 'Grace').units).toBe('Hi Johnson'.length);
  });
});

describe('smsKeyword', () => {
  it.each([
    'STOP',
    'stop',
    '  Stop ',
    'STOPALL',
    'unsubscribe',
    'Cancel',
    'END',
    'quit',
    'REVOKE',
    'OPTOUT',
    'opt out',
    'OPT  OUT',
  ])('%j opts out', (w) => {
    expect(smsKeyword(w)).toBe('stop');
  });
  it.each(['START', ' unstop '])('%j opts in', (w) => expect(smsKeyword(w)).toBe('start'));
  it.each(['HELP', ' info '])('%j asks for help', (w) => expect(smsKeyword(w)).toBe('help'));
  it.each(['stop it please', 'hello', 'STOPPED'])('%j is not a keyword', (w) => expect(smsKeyword(w)).toBeNull());
});
