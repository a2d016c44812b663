// Keys and chord transposition: pure functions, shared by the server (valid key names) and the
// browser (charts shown and printed in another key). No imports, so the browser bundle stays small.

const LETTERS = ['C', 'D', 'E', 'F', 'G', 'A', 'B'] as const;

const NATURAL_PC: Record<string, number> = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };

const MAJOR = [0, 2, 4, 5, 7, 9, 11];

const MINOR = [0, 2, 3, 5, 7, 8, 10];

/** Every key a song or a plan's song may be in: the 15 major and 15 minor key signatures. */
export const MAJOR_KEYS = ['C', 'G', 'D', 'A', 'E', 'B', 'F#', 'C#', 'F', 'Bb', 'Eb', 'Ab', 'Db', 'Gb', 'Cb'] as const;

export const MINOR_KEYS = [
  'Am',
  'Em',
  'Bm',
  'F#m',
  'C#m',
  'G#m',
  'D#m',
  'A#m',
  'Dm',
  'Gm',
  'Cm',
  'Fm',
  'Bbm',
  'Ebm',
  'Abm',
] as const;

export const KEYS: readonly string[] = [...MAJOR_KEYS, ...MINOR_KEYS];

export function isValidKey(key: string): boolean {
  return KEYS.includes(key);
}

const mod12 = (n: number) => ((n % 12) + 12) % 12;

interface ParsedNote {
  letter: string;
  accidental: '' | '#' | 'b';
}

function parseNote(s: string): ParsedNote | null {
  const m = /^([A-G])(#|b)?$/.exec(s);
  return m ? { letter: m[1]!, accidental: (m[2] ?? '') as ParsedNote['accidental'] } : null;
}

function pitchOf(n: ParsedNote): number {
  return mod12(NATURAL_PC[n.letter]! + (n.accidental === '#' ? 1 : n.accidental === 'b' ? -1 : 0));
}

function spell(letter: string, pc: number): string {
  const diff = mod12(pc - NATURAL_PC[letter]!);
  return letter + (diff === 0 ? '' : diff === 1 ? '#' : diff === 11 ? 'b' : diff === 2 ? '##' : 'bb');
}

/** The 12 pitch classes spelled as the key wants them (index = pitch class, C = 0). */
export function keySpelling(key: string): string[] {
  if (!isValidKey(key)) throw new Error(`Unknown key ${key}`);
  const minor = key.endsWith('m');
  const tonic = parseNote(minor ? key.slice(0, -1) : key)!;
  const tonicPc = pitchOf(tonic);
  const start = LETTERS.indexOf(tonic.letter as (typeof LETTERS)[number]);
  const names: (string | undefined)[] = Array.from({ length: 12 }, () => undefined);
  (minor ? MINOR : MAJOR).forEach((step, i) => {
    const pc = mod12(tonicPc + step);
    names[pc] = spell(LETTERS[(start + i) % 7]!, pc);
  });
  // The key signature decides how chromatic notes are spelled: sharps, flats, or neither (C, Am).
  const signature = names.filter(Boolean).join(' ');
  const flats = /[A-G]b/.test(signature);
  const sharps = signature.includes('#');
  // Minor keys: the raised seventh (the leading tone of harmonic minor), e.g. G# in A minor.
  if (minor) names[mod12(tonicPc - 1)] = spell(LETTERS[(start + 6) % 7]!, mod12(tonicPc - 1));
  for (let pc = 0; pc < 12; pc++) {
    if (names[pc]) continue;
    const natural = LETTERS.find((l) => NATURAL_PC[l] === pc);
    if (natural) names[pc] = natural;
    else if (sharps)
      names[pc] = spell(
        LETTERS.find((l) => NATURAL_PC[l] === pc - 1)!,
        pc,
      );
    else if (flats)
      names[pc] = spell(
        LETTERS.find((l) => NATURAL_PC[l] === pc + 1)!,
        pc,
      );
    // C major and A minor: the common chromatic chords (C#, Eb, F#, Ab, Bb).
    else names[pc] = ({ 1: 'C#', 3: 'Eb', 6: 'F#', 8: 'Ab', 10: 'Bb' } as Record<number, string>)[pc]!;
  }
  // A double sharp or flat (F## in G# minor) reads as its natural in a chord chart (G).
  return names.map((n) => (n!.length === 3 ? naturalOf(n!) : n!));
}

function naturalOf(name: string): string {
  const pc = mod12(NATURAL_PC[name[0]!]! + (name.endsWith('##') ? 2 : -2));
  return LETTERS.find((l) => NATURAL_PC[l] === pc)!;
}

/** The pitch class of a key's tonic, minor keys taken as their relative major (Em = G). */
function majorTonicPc(key: string): number {
  const minor = key.endsWith('m');
  const pc = pitchOf(parseNote(minor ? key.slice(0, -1) : key)!);
  return minor ? mod12(pc + 3) : pc;
}

/** Semitones up from one key to another (0..11). */
export function semitonesBetween(fromKey: string, toKey: string): number {
  return mod12(majorTonicPc(toKey) - majorTonicPc(fromKey));
}

const CHORD = /^([A-G])(#|b)?(.*?)(?:\/([A-G])(#|b)?)?$/;

/**
 * One chord moved by `semitones` and spelled for `targetKey`: root, quality and slash bass
 * ('D/F#' from G to Bb is 'F/A'). Text that is not a chord ('N.C.', 'x2') comes back unchanged.
 */
export function transposeChord(chord: string, semitones: number, targetKey: string): string {
  const m = CHORD.exec(chord.trim());
  if (!m) return chord;
  const names = keySpelling(targetKey);
  const move = (letter: string, acc: string | undefined) =>
    names[mod12(pitchOf({ letter, accidental: (acc ?? '') as ParsedNote['accidental'] }) + semitones)]!;
  const suffix = m[3] ?? '';
  // 'C6/9' and 'Cadd9' keep their text; only a slash followed by a note is a bass.
  const root = move(m[1]!, m[2]);
  return m[4] ? `${root}${suffix}/${move(m[4], m[5])}` : `${root}${suffix}`;
}

/** A ChordPro text with every [chord] (and its {key: } directive) moved from one key to another. */
export function transposeChordPro(text: string, fromKey: string, toKey: string): string {
  const semitones = semitonesBetween(fromKey, toKey);
  return text
    .replace(/\[([^\]\r\n]{1,24})\]/g, (_, chord: string) => `[${transposeChord(chord, semitones, toKey)}]`)
    .replace(/\{(key|k):\s*[^}]*\}/gi, (_, d: string) => `{${d}: ${toKey}}`);
}
