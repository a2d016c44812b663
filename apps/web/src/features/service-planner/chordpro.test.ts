import { describe, expect, it } from 'vitest';
import { renderChordPro } from './chordpro';

const AMAZING = `{title: Amazing Grace}
{key: G}
{start_of_verse}
[G]Amazing [G7]grace, how [C/G]sweet the [G]sound
That [G]saved a [Em]wretch like [D]me
{end_of_verse}

{comment: Chorus}

{start_of_chorus}
[D/F#]My chains are [G]gone
{end_of_chorus}`;

describe('renderChordPro', () => {
  it('reads title, key, sections, chords over their words, and comments', () => {
    const chart = renderChordPro(AMAZING);
    expect(chart.title).toBe('Amazing Grace');
    expect(chart.key).toBe('G');
    expect(chart.sections.map((s) => s.type)).toEqual(['verse', 'none', 'chorus']);
    // The chorus is named on the chart, by its own label or as 'Chorus' ({soc} as well).
    expect(chart.sections.map((s) => s.label)).toEqual([null, null, 'Chorus']);
    expect(renderChordPro('{soc: Chorus 2}\n[D]My chains\n{eoc}').sections[0]).toMatchObject({
      type: 'chorus',
      label: 'Chorus 2',
    });
    const first = chart.sections[0]!.lines[0]!;
    expect(first.kind).toBe('lyrics');
    if (first.kind !== 'lyrics') return;
    expect(first.segments.map((s) => s.chord).filter(Boolean)).toEqual(['G', 'G7', 'C/G', 'G']);
    expect(first.segments.map((s) => s.lyrics).join('')).toBe('Amazing grace, how sweet the sound');
    expect(chart.sections[1]!.lines[0]).toEqual({ kind: 'comment', text: 'Chorus' });
  });

  it('shows the chart in another key, spelled for that key', () => {
    const inBb = renderChordPro(AMAZING, { fromKey: 'G', toKey: 'Bb' });
    expect(inBb.key).toBe('Bb');
    const chords = inBb.sections.flatMap((s) =>
      s.lines.flatMap((l) => (l.kind === 'lyrics' ? l.segments.map((x) => x.chord).filter(Boolean) : [])),
    );
    expect(chords).toEqual(['Bb', 'Bb7', 'Eb/Bb', 'Bb', 'Bb', 'Gm', 'F', 'F/A', 'Bb']);
    const inE = renderChordPro(AMAZING, { fromKey: 'G', toKey: 'E' });
    const last = inE.sections[2]!.lines[0]!;
    expect(last.kind === 'lyrics' && last.segments[0]!.chord).toBe('B/D#');
  });

  it('keeps the text as it is without a known key, and survives plain lyrics', () => {
    expect(renderChordPro(AMAZING, { fromKey: null, toKey: 'A' }).key).toBe('G');
    const plain = renderChordPro('Just words\non two lines');
    expect(plain.sections[0]!.lines).toEqual([
      { kind: 'lyrics', segments: [{ chord: '', lyrics: 'Just words' }] },
      { kind: 'lyrics', segments: [{ chord: '', lyrics: 'on two lines' }] },
    ]);
  });
});
