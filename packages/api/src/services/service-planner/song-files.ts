import { sql, type Db } from '@lampstand/db';
import { strToU8, zipSync } from 'fflate';
import { badRequest, notFound } from '../../errors.js';
import { escapeHtml } from '../../render/html.js';
import { toCsv } from '../../render/csv.js';
import {
  chordProLyrics,
  readChordProMeta,
  readDirective,
  sectionStart,
  songsToChordPro,
  splitSongs,
  type SongForChordPro,
} from '../../shared/chordpro.js';
import { isValidKey } from '../../shared/music.js';
import { createSong } from './songs.js';

// Songs in and out as files: ChordPro import and export, and OpenLyrics for
// projection software (OpenLP, FreeShow). Files are read as text; nothing in them is run.

/** A file a route hands back as it is: its name, type, and its text or bytes (base64). */
export interface SongFile {
  fileName: string;
  contentType: string;
  text?: string;
  base64?: string;
}

const SONG_COLUMNS = [
  'title',
  'artist',
  'keySignature',
  'tempo',
  'timeSignature',
  'ccliNumber',
  'chords',
  'lyrics',
] as const;

/** A file name from a title: letters, digits and dashes. */
const fileStem = (title: string) =>
  title
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 80) || 'song';

const fits = <T>(v: T | null, ok: (v: T) => boolean) => (v !== null && ok(v) ? v : null);

/** A song's fields from one ChordPro song: the title from `{title}` or else the file's name. */
function songFromChordPro(text: string, fallbackTitle: string) {
  const meta = readChordProMeta(text);
  return {
    title: (meta.title ?? fallbackTitle).slice(0, 200),
    artist: meta.artist?.slice(0, 200) ?? null,
    keySignature: fits(meta.key, isValidKey),
    tempo: fits(meta.tempo, (t) => t >= 20 && t <= 300),
    timeSignature: fits(meta.time, (t) => /^(1[0-6]|[1-9])\/(1|2|4|8|16)$/.test(t)),
    ccliNumber: meta.ccli,
    chords: text,
    lyrics: chordProLyrics(text) || null,
    tags: [],
  };
}

/**
 * ChordPro files to songs, all or none (one transaction): each file may hold several songs
 * (`{new_song}`). The route has checked each file's size and that it is text.
 */
export async function importChordProFiles(
  db: Db,
  tenantId: number,
  input: { files: { name: string; content: string }[] },
): Promise<{ songs: { id: number; title: string }[] }> {
  const parsed = input.files.flatMap((f, i) => {
    const songs = splitSongs(f.content);
    if (songs.length === 0) throw badRequest(`${f.name} holds no song`, `files.${i}.content`);
    const stem = f.name.replace(/\.(cho|chordpro|pro|crd|chopro)$/i, '').trim() || 'Untitled song';
    return songs.map((text) => {
      if (text.length > 20000)
        throw badRequest(`A song in ${f.name} is longer than 20000 characters`, `files.${i}.content`);
      return songFromChordPro(text, stem);
    });
  });
  if (parsed.length > 100) throw badRequest('At most 100 songs can be imported at once', 'files');
  const songs = await db.transaction().execute(async (trx) => {
    const out: { id: number; title: string }[] = [];
    for (const s of parsed) {
      const song = await createSong(trx, tenantId, s);
      out.push({ id: song.id, title: song.title });
    }
    return out;
  });
  return { songs };
}

export async function songChordProFile(db: Db, tenantId: number, input: { id: number }): Promise<SongFile> {
  const song = await db
    .selectFrom('songs')
    .select(SONG_COLUMNS)
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!song) throw notFound('Song not found');
  return {
    fileName: `${fileStem(song.title)}.cho`,
    contentType: 'text/plain; charset=utf-8',
    text: songsToChordPro([song]),
  };
}

/** A plan's songs in order of service (each once). */
async function planSongs(
  db: Db,
  tenantId: number,
  planId: number,
): Promise<{ title: string; songs: SongForChordPro[] }> {
  const plan = await db
    .selectFrom('servicePlans')
    .select(['title', 'date'])
    .where('id', '=', planId)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!plan) throw notFound('Service plan not found');
  const rows = await db
    .selectFrom('servicePlanSongs as ps')
    .innerJoin('serviceItems as i', 'i.id', 'ps.serviceItemId')
    .innerJoin('songs as s', 's.id', 'ps.songId')
    .select(['s.id', ...SONG_COLUMNS.map((c) => `s.${c}` as const), 'ps.keySignature as planKey'])
    .where('ps.servicePlanId', '=', planId)
    .where('ps.userId', '=', tenantId)
    .orderBy('i.position')
    .orderBy('i.id')
    .execute();
  const seen = new Set<number>();
  const songs = rows.filter((r) => !seen.has(r.id) && seen.add(r.id));
  return { title: `${plan.title} ${plan.date}`, songs };
}

export async function planChordProFile(db: Db, tenantId: number, input: { id: number }): Promise<SongFile> {
  const { title, songs } = await planSongs(db, tenantId, input.id);
  if (songs.length === 0) throw badRequest('This plan has no songs yet', 'id');
  return { fileName: `${fileStem(title)}.cho`, contentType: 'text/plain; charset=utf-8', text: songsToChordPro(songs) };
}

// ---- OpenLyrics (https://docs.openlyrics.org) ----

interface Verse {
  name: string;
  lines: string[];
}

const VERSE_LETTER: Record<string, string> = {
  verse: 'v',
  chorus: 'c',
  bridge: 'b',
  prechorus: 'p',
  intro: 'i',
  outro: 'e',
};

/** A ChordPro chart as OpenLyrics verses, chords kept as `<chord name="…"/>` where they sit. */
function versesOf(song: SongForChordPro): Verse[] {
  const text = song.chords?.trim() ? song.chords : (song.lyrics ?? '');
  const verses: Verse[] = [];
  const counts: Record<string, number> = {};
  let current: Verse | null = null;
  let inSection = false;
  let skip = false;
  const open = (kind: string) => {
    const letter = VERSE_LETTER[kind] ?? 'o';
    counts[letter] = (counts[letter] ?? 0) + 1;
    current = { name: `${letter}${counts[letter]}`, lines: [] };
    verses.push(current);
  };
  for (const raw of text.split(/\r?\n/)) {
    if (raw.startsWith('#')) continue;
    const d = readDirective(raw);
    if (d) {
      const start = sectionStart(d);
      if (d.name === 'start_of_tab' || d.name === 'start_of_grid') skip = true;
      else if (d.name === 'end_of_tab' || d.name === 'end_of_grid') skip = false;
      else if (start) {
        open(start.kind);
        inSection = true;
      } else if (d.name.startsWith('end_of_')) {
        inSection = false;
        current = null;
      }
      continue;
    }
    if (skip) continue;
    if (!raw.trim()) {
      if (!inSection) current = null;
      continue;
    }
    if (!current) open('verse');
    // Text and chords, each escaped: `[G]Amazing` becomes `<chord name="G"/>Amazing`.
    const line = raw
      .trimEnd()
      .split(/(\[[^\]\r\n]*\])/)
      .map((part) =>
        /^\[[^\]]*\]$/.test(part)
          ? part.length > 2
            ? `<chord name="${escapeHtml(part.slice(1, -1))}"/>`
            : ''
          : escapeHtml(part),
      )
      .join('');
    current!.lines.push(line);
  }
  return verses.filter((v) => v.lines.length > 0);
}

/** One song as an OpenLyrics 0.8 document. */
export function openLyricsXml(song: SongForChordPro, now: Date): string {
  const props = [
    `<titles><title>${escapeHtml(song.title)}</title></titles>`,
    song.artist ? `<authors><author>${escapeHtml(song.artist)}</author></authors>` : '',
    song.ccliNumber ? `<ccliNo>${escapeHtml(song.ccliNumber)}</ccliNo>` : '',
    song.tempo ? `<tempo type="bpm">${song.tempo}</tempo>` : '',
    song.keySignature ? `<key>${escapeHtml(song.keySignature)}</key>` : '',
  ].join('');
  const verses = versesOf(song)
    .map((v) => `<verse name="${v.name}"><lines>${v.lines.join('<br/>')}</lines></verse>`)
    .join('\n    ');
  return `<?xml version="1.0" encoding="UTF-8"?>
<song xmlns="http://openlyrics.info/namespace/2009/song" version="0.8" createdIn="Lampstand" modifiedIn="Lampstand" modifiedDate="${now
    .toISOString()
    .slice(0, 19)}">
  <properties>${props}</properties>
  <lyrics>
    ${verses}
  </lyrics>
</song>
`;
}

/** A plan's songs as OpenLyrics, one file per song, in one zip ('01-Amazing-Grace.xml', …). */
export async function planOpenLyricsZip(
  db: Db,
  tenantId: number,
  input: { id: number; now?: Date },
): Promise<SongFile> {
  const { title, songs } = await planSongs(db, tenantId, input.id);
  if (songs.length === 0) throw badRequest('This plan has no songs yet', 'id');
  const now = input.now ?? new Date();
  const files = Object.fromEntries(
    songs.map((s, i) => [`${String(i + 1).padStart(2, '0')}-${fileStem(s.title)}.xml`, strToU8(openLyricsXml(s, now))]),
  );
  const zip = zipSync(files, { level: 6, mtime: now });
  return {
    fileName: `${fileStem(title)}-openlyrics.zip`,
    contentType: 'application/zip',
    base64: Buffer.from(zip).toString('base64'),
  };
}

// ---- Song usage (CCLI reporting) ----

export interface SongUsageRow {
  songId: number;
  title: string;
  artist: string | null;
  ccliNumber: string | null;
  /** Services that used it: a plan held at two times counts twice. */
  uses: number;
  plans: number;
  firstUsed: string;
  lastUsed: string;
}

/**
 * Each song used by the plans dated `from`–`to` (inclusive), counted once per service time of each
 * plan (a plan with no times set counts once; a song twice in one plan still counts once a service).
 */
export async function songUsage(
  db: Db,
  tenantId: number,
  input: { from: string; to: string },
): Promise<SongUsageRow[]> {
  const rows = await sql<{
    songId: number;
    title: string;
    artist: string | null;
    ccliNumber: string | null;
    uses: string;
    plans: string;
    firstUsed: string;
    lastUsed: string;
  }>`
    select s.id as "songId", s.title, s.artist, s.ccli_number as "ccliNumber",
      sum(greatest(cardinality(p.service_times), 1)) as uses,
      count(*) as plans,
      min(p.date)::text as "firstUsed", max(p.date)::text as "lastUsed"
    from (select distinct song_id, service_plan_id from service_plan_songs where user_id = ${tenantId}) u
    join service_plans p on p.id = u.service_plan_id and p.user_id = ${tenantId}
    join songs s on s.id = u.song_id and s.user_id = ${tenantId}
    where p.date between ${input.from}::date and ${input.to}::date
    group by s.id
    order by uses desc, s.title, s.id`.execute(db);
  return rows.rows.map((r) => ({ ...r, uses: Number(r.uses), plans: Number(r.plans) }));
}

/** The report as the route answers it: the rows, or (`format: 'csv'`) the CSV file for CCLI. */
export async function songUsageReport(
  db: Db,
  tenantId: number,
  input: { from: string; to: string; format: 'json' | 'csv' },
): Promise<{ from: string; to: string; songs: SongUsageRow[] } | { fileName: string; csv: string }> {
  const songs = await songUsage(db, tenantId, input);
  if (input.format === 'json') return { from: input.from, to: input.to, songs };
  return {
    fileName: `song-usage-${input.from}-to-${input.to}.csv`,
    csv: toCsv([
      ['Title', 'Artist', 'CCLI number', 'Uses', 'Plans', 'First used', 'Last used'],
      ...songs.map((s) => [s.title, s.artist, s.ccliNumber, s.uses, s.plans, s.firstUsed, s.lastUsed]),
    ]),
  };
}
