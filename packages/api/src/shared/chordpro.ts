// ChordPro (https://www.chordpro.org/chordpro/): reading a file's directives, its plain lyrics,
// writing a song back out, and Nashville numbers. Pure functions with no imports, shared by the
// server (import, export, OpenLyrics) and the browser (the chart's Nashville view). Directives are
// read as text, never executed: a directive this code does not know is kept in the chart and
// ignored everywhere else.

/** What a ChordPro file says about its song (only the directives Lampstand keeps). */
export interface ChordProMeta {
  title: string | null;
  artist: string | null;
  key: string | null;
  capo: number | null;
  tempo: number | null;
  time: string | null;
  ccli: string | null;
  copyright: string | null;
}

const DIRECTIVE = /^\s*\{\s*([A-Za-z_][\w-]*)(?:\s*[:\s]\s*(.*?))?\s*\}\s*$/;

/** Short names ChordPro allows for the directives read here. */
const ALIASES: Record<string, string> = {
  t: 'title',
  st: 'subtitle',
  c: 'comment',
  ci: 'comment_italic',
  cb: 'comment_box',
  soc: 'start_of_chorus',
  eoc: 'end_of_chorus',
  sov: 'start_of_verse',
  eov: 'end_of_verse',
  sob: 'start_of_bridge',
  eob: 'end_of_bridge',
  sot: 'start_of_tab',
  eot: 'end_of_tab',
  ns: 'new_song',
  k: 'key',
};

/** A line's directive, its name lower-cased and unaliased, or null for a line of lyrics. */
export function readDirective(line: string): { name: string; value: string } | null {
  const m = DIRECTIVE.exec(line);
  if (!m) return null;
  const name = m[1]!.toLowerCase();
  return { name: ALIASES[name] ?? name, value: (m[2] ?? '').trim() };
}

/** The directives of a ChordPro text that describe the song (the first of each wins). */
export function readChordProMeta(text: string): ChordProMeta {
  const meta: ChordProMeta = {
    title: null,
    artist: null,
    key: null,
    capo: null,
    tempo: null,
    time: null,
    ccli: null,
    copyright: null,
  };
  for (const line of text.split(/\r?\n/)) {
    const d = readDirective(line);
    if (!d || !d.value) continue;
    if (d.name === 'title') meta.title ??= d.value;
    else if (d.name === 'artist' || d.name === 'subtitle' || d.name === 'composer') meta.artist ??= d.value;
    else if (d.name === 'key') meta.key ??= d.value;
    else if (d.name === 'capo' && /^\d{1,2}$/.test(d.value)) meta.capo ??= Number(d.value);
    else if (d.name === 'tempo' && /^\d{1,3}$/.test(d.value)) meta.tempo ??= Number(d.value);
    else if (d.name === 'time') meta.time ??= d.value;
    else if (d.name === 'ccli' && /^\d{1,10}$/.test(d.value)) meta.ccli ??= d.value;
    else if (d.name === 'copyright') meta.copyright ??= d.value;
  }
  return meta;
}

/** The section a `start_of_…` directive opens ('verse', 'chorus', 'bridge', 'tab', …), or null. */
export function sectionStart(d: { name: string; value: string }): { kind: string; label: string } | null {
  const m = /^start_of_(\w+)$/.exec(d.name);
  return m ? { kind: m[1]!, label: d.value } : null;
}

/**
 * The words alone: chords taken out, directives dropped (a section's start becomes a blank line
 * before it), tabs and grids left out. What the song's Lyrics field and projection software want.
 */
export function chordProLyrics(text: string): string {
  const out: string[] = [];
  let skip = false;
  for (const raw of text.split(/\r?\n/)) {
    if (raw.startsWith('#')) continue;
    const d = readDirective(raw);
    if (d) {
      if (d.name === 'start_of_tab' || d.name === 'start_of_grid') skip = true;
      else if (d.name === 'end_of_tab' || d.name === 'end_of_grid') skip = false;
      else if (sectionStart(d) && out.length && out[out.length - 1] !== '') out.push('');
      continue;
    }
    if (skip) continue;
    out.push(
      raw
        .replace(/\[[^\]\r\n]*\]/g, '')
        .replace(/\s+$/, '')
        .replace(/ {2,}/g, ' '),
    );
  }
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Splits a text holding several songs at its `{new_song}` directives. */
export function splitSongs(text: string): string[] {
  const songs: string[][] = [[]];
  for (const line of text.split(/\r?\n/)) {
    const d = readDirective(line);
    if (d?.name === 'new_song') songs.push([]);
    else songs[songs.length - 1]!.push(line);
  }
  return songs.map((l) => l.join('\n').trim()).filter((s) => s.length > 0);
}

export interface SongForChordPro {
  title: string;
  artist: string | null;
  keySignature: string | null;
  tempo: number | null;
  timeSignature: string | null;
  ccliNumber: string | null;
  chords: string | null;
  lyrics: string | null;
}

const oneLine = (s: string) => s.replace(/[{}\r\n]+/g, ' ').trim();

/**
 * A song as a ChordPro file: the song's fields as directives at the top (where the chart does not
 * already say them), then the chart, or the lyrics when it has no chart.
 */
export function songToChordPro(song: SongForChordPro): string {
  const body = (song.chords ?? '').trim() || (song.lyrics ?? '').trim();
  const has = readChordProMeta(body);
  const head: string[] = [];
  if (!has.title) head.push(`{title: ${oneLine(song.title)}}`);
  if (!has.artist && song.artist) head.push(`{artist: ${oneLine(song.artist)}}`);
  if (!has.key && song.keySignature) head.push(`{key: ${song.keySignature}}`);
  if (!has.tempo && song.tempo) head.push(`{tempo: ${song.tempo}}`);
  if (!has.time && song.timeSignature) head.push(`{time: ${song.timeSignature}}`);
  if (!has.ccli && song.ccliNumber) head.push(`{ccli: ${song.ccliNumber}}`);
  return [...head, ...(body ? [body] : [])].join('\n') + '\n';
}

/** Several songs in one ChordPro file, separated by `{new_song}`. */
export function songsToChordPro(songs: SongForChordPro[]): string {
  return songs.map(songToChordPro).join('{new_song}\n');
}

// ---- Nashville numbers ----

const NOTE_PC: Record<string, number> = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };

const mod12 = (n: number) => ((n % 12) + 12) % 12;

/** Scale degrees of the major scale by semitones above the tonic; the others are flat degrees. */
const DEGREE: Record<number, string> = {
  0: '1',
  1: 'b2',
  2: '2',
  3: 'b3',
  4: '3',
  5: '4',
  6: 'b5',
  7: '5',
  8: 'b6',
  9: '6',
  10: 'b7',
  11: '7',
};

function pitch(note: string): number | null {
  const m = /^([A-G])(#|b)?$/.exec(note);
  if (!m) return null;
  return mod12(NOTE_PC[m[1]!]! + (m[2] === '#' ? 1 : m[2] === 'b' ? -1 : 0));
}

const CHORD = /^([A-G](?:#|b)?)(.*?)(?:\/([A-G](?:#|b)?))?$/;

/**
 * A chord as its Nashville number in `key` ('D/F#' in G is '5/7', 'Am' is '6m', 'Bb' is 'b3').
 * A minor key counts from its relative major (Em charts number as G), as most Nashville charts do.
 * Text that is not a chord comes back unchanged.
 */
export function nashvilleNumber(chord: string, key: string): string {
  const k = /^([A-G](?:#|b)?)(m?)$/.exec(key.trim());
  const m = CHORD.exec(chord.trim());
  if (!k || !m) return chord;
  const tonic = pitch(k[1]!);
  const root = pitch(m[1]!);
  if (tonic === null || root === null) return chord;
  const home = k[2] ? mod12(tonic + 3) : tonic;
  const number = DEGREE[mod12(root - home)]!;
  const bass = m[3] ? pitch(m[3]) : null;
  return bass === null ? `${number}${m[2]}` : `${number}${m[2]}/${DEGREE[mod12(bass - home)]}`;
}
