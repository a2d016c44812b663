import { ChordLyricsPair, ChordProParser, Tag } from 'chordsheetjs';
import { isValidKey, transposeChordPro } from '@lampstand/api/shared/music';

export interface ChartSegment {
  chord: string;
  lyrics: string;
}

export type ChartLine =
  { kind: 'lyrics'; segments: ChartSegment[] } | { kind: 'comment'; text: string } | { kind: 'empty' };

export interface ChartSection {
  /** 'verse', 'chorus', 'bridge', 'tab' or 'none'. */
  type: string;
  /**
   * What the section is called on the chart: its start directive's label ('{soc: Chorus 2}'), else
   * 'Chorus' for a chorus ('{start_of_chorus}' / '{soc}'), else null.
   */
  label: string | null;
  lines: ChartLine[];
}

export interface Chart {
  title: string | null;
  /** The key the chart is shown in. */
  key: string | null;
  sections: ChartSection[];
}

/**
 * A ChordPro text as sections of lines of chord-over-lyric segments (parsed by chordsheetjs),
 * moved to `toKey` first when both keys are known: chords spelled as the target key wants.
 */
export function renderChordPro(text: string, o: { fromKey?: string | null; toKey?: string | null } = {}): Chart {
  const from = o.fromKey && isValidKey(o.fromKey) ? o.fromKey : null;
  const to = o.toKey && isValidKey(o.toKey) ? o.toKey : null;
  const source = from && to && from !== to ? transposeChordPro(text, from, to) : text;
  const song = new ChordProParser().parse(source);
  const sections: ChartSection[] = song.paragraphs.map((p) => ({
    type: p.type,
    label: p.label?.trim() || (p.type === 'chorus' ? 'Chorus' : null),
    lines: p.lines.map((line): ChartLine => {
      const comment = line.items.find((i) => i instanceof Tag && (i.name === 'comment' || i.name === 'c'));
      if (comment instanceof Tag) return { kind: 'comment', text: comment.value ?? '' };
      const segments = line.items
        .filter((i): i is ChordLyricsPair => i instanceof ChordLyricsPair)
        .map((i) => ({ chord: i.chords ?? '', lyrics: i.lyrics ?? '' }));
      return segments.length ? { kind: 'lyrics', segments } : { kind: 'empty' };
    }),
  }));
  return { title: song.title ?? null, key: from && to ? to : (from ?? song.key ?? null), sections };
}
