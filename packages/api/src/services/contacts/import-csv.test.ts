import { describe, expect, it } from 'vitest';
import { openCsv } from './import-csv.js';

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
