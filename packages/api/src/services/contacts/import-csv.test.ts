import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { CsvCursor, openCsv, type CsvRow } from './import-csv.js';

/** A file of `n` rows after its header. */
const file = (n: number) => ['Name,Amount', ...Array.from({ length: n }, (_, i) => `Row ${i + 1},${i}`)].join('\n');

describe('openCsv: reading a file in slices', () => {
  it('takes a turn on the pacer for each slice of work, a unit a millisecond, and waits for it', async () => {
    let clock = 0;
    const taken: number[] = [];
    let release: (() => void) | null = null;
    const pacer = {
      take(units: number) {
        taken.push(units);
        return new Promise<void>((r) => (release = r));
      },
    };
    const { rows } = await openCsv(file(4), { pacer, now: () => clock });
    const first = await rows.next();
    expect(first.value).toEqual({ line: 2, cells: ['Row 1', '0'] });
    expect(taken).toEqual([]); // no work done yet: no turn taken
    clock += 3; // the caller's work on the first row
    const second = rows.next();
    await new Promise((r) => setImmediate(r));
    expect(taken).toEqual([3]);
    // The reading waits for its turn: the next row comes only once the pacer lets it.
    let got = false;
    void second.then(() => (got = true));
    await new Promise((r) => setImmediate(r));
    expect(got).toBe(false);
    release!();
    expect((await second).value).toEqual({ line: 3, cells: ['Row 2', '1'] });
    release = null;
    // A short slice (under a millisecond of work) takes no turn.
    clock += 0.5;
    expect((await rows.next()).value).toEqual({ line: 4, cells: ['Row 3', '2'] });
    expect(taken).toEqual([3]);
  });

  it('without a pacer, never waits: every row comes, whatever the work', async () => {
    let clock = 0;
    const { rows } = await openCsv(file(50), { now: () => clock });
    let count = 0;
    for await (const r of rows) {
      count++;
      expect(r.cells[0]).toBe(`Row ${count}`);
      clock += 10;
    }
    expect(count).toBe(50);
  });
});

describe('CsvCursor: reads a file as csv-parse does', () => {
  /** csv-parse's records of the file (line endings normalised first), each with the line it starts on, empty lines skipped; or its error. */
  function reference(text: string): { rows: CsvRow[]; error: string | null } {
    const records: string[][] = [];
    let error: string | null = null;
    try {
      parse(text.replace(/\r\n?/g, '\n'), {
        bom: true,
        relax_column_count: true,
        skip_empty_lines: false,
        trim: false,
        on_record: (r: string[]) => (records.push(r), r),
      });
    } catch (err) {
      error = `This file could not be read as CSV: ${(err as Error).message}`;
    }
    const rows: CsvRow[] = [];
    let line = 1;
    for (const cells of records) {
      const at = line;
      line++;
      for (const c of cells) if (c.includes('\n')) line += c.split('\n').length - 1;
      if (cells.length === 1 && cells[0] === '') continue;
      rows.push({ line: at, cells });
    }
    return { rows, error };
  }

  function read(text: string): { rows: CsvRow[]; error: string | null } {
    const cursor = new CsvCursor(text);
    const rows: CsvRow[] = [];
    try {
      for (let cells = cursor.next(); cells; cells = cursor.next()) rows.push({ line: cursor.line, cells });
    } catch (err) {
      return { rows, error: (err as Error).message };
    }
    return { rows, error: null };
  }

  it('the same rows, lines and errors on files made of the characters that matter', () => {
    const alphabet = ['a', 'b', ',', ',', '"', '"', '\n', '\r', '\r\n', ' ', '\0', 'é', '\uFEFF', '😀'];
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    let errors = 0;
    let longer = 0;
    // 5,000 files: every pair of these characters many times over, in about a CPU-second (20,000
    // compared with toEqual each took over 30 s on CI's busy cores).
    for (let i = 0; i < 5_000; i++) {
      let text = '';
      for (let n = random(24); n > 0; n--) text += alphabet[random(alphabet.length)];
      const want = reference(text);
      const got = read(text);
      // Where the file is malformed, the rows before the malformed one are read, then its error.
      if (JSON.stringify(got) !== JSON.stringify(want))
        expect({ text, rows: got.rows, error: got.error }).toEqual({ text, rows: want.rows, error: want.error });
      if (want.error) errors++;
      if (want.rows.length > 2) longer++;
    }
    // Both kinds of file came up often.
    expect(errors).toBeGreaterThan(500);
    expect(longer).toBeGreaterThan(500);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks, and counts their lines', () => {
    const text = '\uFEFFName,Note\r\n"Smith, Ann","said ""hi""\r\nthen left"\r\n\r\nBob,\n';
    expect(read(text)).toEqual({
      rows: [
        { line: 1, cells: ['Name', 'Note'] },
        { line: 2, cells: ['Smith, Ann', 'said "hi"\nthen left'] },
        { line: 5, cells: ['Bob', ''] },
      ],
      error: null,
    });
  });
});
