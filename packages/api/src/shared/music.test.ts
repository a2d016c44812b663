import { describe, expect, it } from 'vitest';
import {
  KEYS,
  MAJOR_KEYS,
  MINOR_KEYS,
  isValidKey,
  keySpelling,
  semitonesBetween,
  transposeChord,
  transposeChordPro,
} from './music.js';

const PC: Record<string, number> = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };

/** Pitch class of a spelled note ('F#', 'Bb', 'Cb', 'E#'). */
const pcOf = (n: string) => (PC[n[0]!]! + (n.slice(1) === '#' ? 1 : n.slice(1) === 'b' ? -1 : 0) + 12) % 12;

const rootOf = (chord: string) => /^[A-G][#b]?/.exec(chord)![0];

const SHARP_KEYS = ['G', 'D', 'A', 'E', 'B', 'F#', 'C#', 'Em', 'Bm', 'F#m', 'C#m', 'G#m', 'D#m', 'A#m'];

const FLAT_KEYS = ['F', 'Bb', 'Eb', 'Ab', 'Db', 'Gb', 'Cb', 'Dm', 'Gm', 'Cm', 'Fm', 'Bbm', 'Ebm', 'Abm'];

describe('keys', () => {
  it('knows the 15 major and 15 minor keys and nothing else', () => {
    expect(MAJOR_KEYS).toHaveLength(15);
    expect(MINOR_KEYS).toHaveLength(15);
    for (const k of KEYS) expect(isValidKey(k)).toBe(true);
    for (const k of ['H', 'E#', 'Fb', 'G#', 'Dbm', 'c', '', 'Cmaj']) expect(isValidKey(k)).toBe(false);
  });

  it('spells every key with sharps or flats as its signature wants, each pitch class once', () => {
    for (const k of KEYS) {
      const names = keySpelling(k);
      expect(names.map(pcOf), k).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      const tonic = k.endsWith('m') ? k.slice(0, -1) : k;
      expect(names).toContain(tonic);
      if (SHARP_KEYS.includes(k)) expect(names.join(' '), k).not.toMatch(/[A-G]b/);
      if (FLAT_KEYS.includes(k)) {
        // Flat keys use flats; a minor key's leading tone may be a natural or sharp (F# in G minor).
        const leading = names[(pcOf(tonic) + 11) % 12]!;
        expect(names.filter((n) => n !== leading).join(' '), k).not.toContain('#');
      }
    }
    expect(keySpelling('Gb')[11]).toBe('Cb');
    expect(keySpelling('F#')[5]).toBe('E#');
    expect(keySpelling('C#')[0]).toBe('B#');
    expect(keySpelling('Cb')[4]).toBe('Fb');
  });

  it('counts semitones between keys, minor keys by their relative major', () => {
    expect(semitonesBetween('G', 'A')).toBe(2);
    expect(semitonesBetween('A', 'G')).toBe(10);
    expect(semitonesBetween('C', 'C')).toBe(0);
    expect(semitonesBetween('Am', 'Cm')).toBe(3);
    expect(semitonesBetween('G', 'Em')).toBe(0);
    expect(semitonesBetween('F#', 'Gb')).toBe(0);
  });
});

describe('transposeChord', () => {
  it('moves a progression from G to every key, spelled for that key, and back again', () => {
    const progression = ['G', 'D/F#', 'Em7', 'Cadd9', 'Am7', 'Dsus4', 'Bm', 'C/G'];
    for (const key of MAJOR_KEYS) {
      const n = semitonesBetween('G', key);
      const moved = progression.map((c) => transposeChord(c, n, key));
      expect(rootOf(moved[0]!), key).toBe(key);
      moved.forEach((c, i) => {
        expect(pcOf(rootOf(c)), `${key} ${c}`).toBe((pcOf(rootOf(progression[i]!)) + n) % 12);
        // Quality kept.
        expect(c.replace(/^[A-G][#b]?/, '').replace(/\/.*/, '')).toBe(
          progression[i]!.replace(/^[A-G][#b]?/, '').replace(/\/.*/, ''),
        );
      });
      const notes = moved.flatMap((c) => [rootOf(c), ...(c.includes('/') ? [c.split('/')[1]!] : [])]).join(' ');
      if (SHARP_KEYS.includes(key)) expect(notes, key).not.toMatch(/[A-G]b/);
      if (FLAT_KEYS.includes(key)) expect(notes, key).not.toContain('#');
      const back = moved.map((c) => transposeChord(c, semitonesBetween(key, 'G'), 'G'));
      expect(back, key).toEqual(progression);
    }
  });

  it('spells by the target key: sharps for sharp keys, flats for flat keys', () => {
    expect(transposeChord('G', 4, 'B')).toBe('B');
    expect(transposeChord('D/F#', 3, 'Bb')).toBe('F/A');
    expect(transposeChord('C#m', 1, 'D')).toBe('Dm');
    expect(transposeChord('A', 1, 'Bb')).toBe('Bb');
    expect(transposeChord('A', 1, 'B')).toBe('A#');
    expect(transposeChord('E', 2, 'Gb')).toBe('Gb');
    expect(transposeChord('E', 2, 'F#')).toBe('F#');
    expect(transposeChord('C', 11, 'Gb')).toBe('Cb');
    expect(transposeChord('C', 11, 'B')).toBe('B');
  });

  it('moves slash chords: root and bass both', () => {
    expect(transposeChord('G/B', 2, 'A')).toBe('A/C#');
    expect(transposeChord('C/E', 3, 'Eb')).toBe('Eb/G');
    expect(transposeChord('Am7/G', 5, 'Dm')).toBe('Dm7/C');
    expect(transposeChord('F/C', 6, 'B')).toBe('B/F#');
    // '6/9' is a chord quality, not a bass note.
    expect(transposeChord('C6/9', 2, 'D')).toBe('D6/9');
  });

  it('moves minor keys with their leading tone (E/G# in A minor)', () => {
    const am = ['Am', 'Dm', 'E/G#', 'F', 'G', 'E7', 'C'];
    expect(am.map((c) => transposeChord(c, semitonesBetween('Am', 'Em'), 'Em'))).toEqual([
      'Em',
      'Am',
      'B/D#',
      'C',
      'D',
      'B7',
      'G',
    ]);
    expect(am.map((c) => transposeChord(c, semitonesBetween('Am', 'Cm'), 'Cm'))).toEqual([
      'Cm',
      'Fm',
      'G/B',
      'Ab',
      'Bb',
      'G7',
      'Eb',
    ]);
    expect(am.map((c) => transposeChord(c, semitonesBetween('Am', 'F#m'), 'F#m'))).toEqual([
      'F#m',
      'Bm',
      'C#/E#',
      'D',
      'E',
      'C#7',
      'A',
    ]);
    for (const key of MINOR_KEYS) {
      const n = semitonesBetween('Am', key);
      const moved = am.map((c) => transposeChord(c, n, key));
      expect(moved[0], key).toBe(key);
      expect(
        moved.every((c) => !/##|bb/.test(c)),
        key,
      ).toBe(true);
    }
  });

  it('leaves text that is not a chord alone', () => {
    expect(transposeChord('N.C.', 2, 'A')).toBe('N.C.');
    expect(transposeChord('x2', 2, 'A')).toBe('x2');
  });
});

describe('transposeChordPro', () => {
  it('moves every [chord] and the {key} directive, keeping lyrics and other directives', () => {
    const text =
      '{title: Amazing Grace}\n{key: G}\n[G]Amazing [G7]grace, how [C/G]sweet the [G]sound\n{comment: Chorus}\n[N.C.]Hold';
    expect(transposeChordPro(text, 'G', 'Ab')).toBe(
      '{title: Amazing Grace}\n{key: Ab}\n[Ab]Amazing [Ab7]grace, how [Db/Ab]sweet the [Ab]sound\n{comment: Chorus}\n[N.C.]Hold',
    );
    expect(transposeChordPro(text, 'G', 'G')).toBe(text);
  });
});
