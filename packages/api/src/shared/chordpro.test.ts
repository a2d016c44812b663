import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  chordProLyrics,
  nashvilleNumber,
  readChordProMeta,
  songToChordPro,
  songsToChordPro,
  splitSongs,
} from './chordpro.js';
import { transposeChordPro } from './music.js';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/chordpro');

const file = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');

describe('reading ChordPro files', () => {
  it('reads the directives, long and short, and keeps the first of each', () => {
    expect(readChordProMeta(file('amazing-grace.cho'))).toEqual({
      title: 'Amazing Grace',
      artist: 'John Newton',
      key: 'G',
      capo: 2,
      tempo: 72,
      time: '3/4',
      ccli: '22025',
      copyright: null,
    });
    const vision = readChordProMeta(file('be-thou-my-vision.chordpro'));
    expect([vision.title, vision.artist, vision.key]).toEqual(['Be Thou My Vision', 'Traditional Irish', 'Eb']);
  });

  it('takes the words out: chords mid-word joined, comments, tabs and directives dropped, sections apart', () => {
    expect(chordProLyrics(file('amazing-grace.cho'))).toBe(
      [
        'Amazing grace, how sweet the sound',
        'That saved a wretch like me',
        'I once was lost, but now am found',
        'Was blind, but now I see',
        '',
        "My chains are gone, I've been set free",
      ].join('\n'),
    );
    expect(chordProLyrics(file('be-thou-my-vision.chordpro'))).toBe(
      [
        'Be Thou my Vision, O Lord of my heart',
        'Naught be all else to me, save that Thou art',
        '',
        'Thou my best thought, by day or by night',
      ].join('\n'),
    );
  });

  it('splits a file of several songs at {new_song}', () => {
    const songs = splitSongs(file('holy-holy-holy.pro'));
    expect(songs.map((s) => readChordProMeta(s).title)).toEqual(['Holy, Holy, Holy', 'Doxology']);
  });

  it('treats a directive as text: unknown ones are ignored, braces in values never run anything', () => {
    const meta = readChordProMeta('{title: <script>alert(1)</script>}\n{x_eval: process.exit()}\n{capo: two}');
    expect(meta.title).toBe('<script>alert(1)</script>');
    expect(meta.capo).toBeNull();
  });
});

describe('round trip', () => {
  it('a song written out and read back keeps its fields, chart and words', () => {
    // Every real-world file of the set, the .pro file's songs one by one.
    const texts = [
      file('amazing-grace.cho'),
      file('be-thou-my-vision.chordpro'),
      ...splitSongs(file('holy-holy-holy.pro')),
    ];
    expect(texts.length).toBeGreaterThan(2);
    for (const text of texts) {
      const meta = readChordProMeta(text);
      const song = {
        title: meta.title!,
        artist: meta.artist,
        keySignature: meta.key,
        tempo: meta.tempo,
        timeSignature: meta.time,
        ccliNumber: meta.ccli,
        chords: text,
        lyrics: chordProLyrics(text),
      };
      const out = songToChordPro(song);
      expect(readChordProMeta(out)).toEqual(meta);
      expect(chordProLyrics(out)).toBe(song.lyrics);
    }
  });

  it('adds the fields a chart does not say, and writes lyrics when there is no chart', () => {
    const out = songToChordPro({
      title: 'Doxology',
      artist: 'Thomas Ken',
      keySignature: 'Bb',
      tempo: 90,
      timeSignature: '4/4',
      ccliNumber: '12345',
      chords: null,
      lyrics: 'Praise God from whom all blessings flow',
    });
    expect(out).toBe(
      '{title: Doxology}\n{artist: Thomas Ken}\n{key: Bb}\n{tempo: 90}\n{time: 4/4}\n{ccli: 12345}\nPraise God from whom all blessings flow\n',
    );
    const two = songsToChordPro([
      {
        title: 'A',
        artist: null,
        keySignature: null,
        tempo: null,
        timeSignature: null,
        ccliNumber: null,
        chords: '[C]a',
        lyrics: null,
      },
      {
        title: 'B',
        artist: null,
        keySignature: null,
        tempo: null,
        timeSignature: null,
        ccliNumber: null,
        chords: '[D]b',
        lyrics: null,
      },
    ]);
    expect(splitSongs(two).map((s) => readChordProMeta(s).title)).toEqual(['A', 'B']);
  });
});

describe('transposition across keys with sharps and flats', () => {
  it('moves every chord and the key, spelled for the new key', () => {
    const g = file('amazing-grace.cho');
    const bb = transposeChordPro(g, 'G', 'Bb');
    expect(readChordProMeta(bb).key).toBe('Bb');
    expect(bb).toContain('A[Bb]mazing [Bb7]grace, how [Eb]sweet');
    expect(bb).toContain('My [F/A]chains');
    const e = transposeChordPro(g, 'G', 'E');
    expect(e).toContain('That [E]saved a [C#m]wretch like [B]me');
    expect(e).toContain('My [B/D#]chains');
    const vision = transposeChordPro(file('be-thou-my-vision.chordpro'), 'Eb', 'D');
    expect(vision).toContain('[D]Be Thou my [G]Vi[D]sion, O [A]Lord of my [Bm]heart');
    expect(vision).toContain('Thou my best [F]thought, by [C/E]day or by [Dm]night');
  });
});

describe('Nashville numbers', () => {
  it('numbers chords from the key, slash basses and borrowed chords included', () => {
    expect(['G', 'G7', 'C', 'Em', 'D', 'D/F#', 'Bb', 'F'].map((c) => nashvilleNumber(c, 'G'))).toEqual([
      '1',
      '17',
      '4',
      '6m',
      '5',
      '5/7',
      'b3',
      'b7',
    ]);
    expect(['Eb', 'Ab', 'Bb', 'Cm', 'Db/F'].map((c) => nashvilleNumber(c, 'Eb'))).toEqual([
      '1',
      '4',
      '5',
      '6m',
      'b7/2',
    ]);
    // A minor key counts from its relative major: F#m is the 6 of A.
    expect(['F#m', 'C#7', 'Bm'].map((c) => nashvilleNumber(c, 'F#m'))).toEqual(['6m', '37', '2m']);
    expect(nashvilleNumber('N.C.', 'G')).toBe('N.C.');
  });
});
