import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { badRequest } from '../../errors.js';

/** Reading a contact import's CSV file: a chunk at a time, so other requests run between chunks. */

const PREVIEW_ROWS = 5;
/** Characters of the file handed to the parser at a time; the event loop gets a turn between them. */
const PARSE_CHUNK = 64 * 1024;

/** One CSV record: the line it starts on, and its cells. */
export interface CsvRow {
  line: number;
  cells: string[];
}

export interface OpenCsv {
  headers: string[];
  /** The records after the header, parsed a chunk of the file at a time. */
  rows: AsyncGenerator<CsvRow>;
}

/** The file in chunks, line endings normalised (a CR at a chunk's end waits for the next chunk). */
async function* normalisedChunks(csv: string): AsyncGenerator<string> {
  let carry = '';
  for (let at = 0; at < csv.length; at += PARSE_CHUNK) {
    await nextTurn(); // other requests run between chunks
    let chunk = carry + csv.slice(at, at + PARSE_CHUNK);
    carry = '';
    if (chunk.endsWith('\r') && at + PARSE_CHUNK < csv.length) {
      carry = '\r';
      chunk = chunk.slice(0, -1);
    }
    // Line endings normalised first, so a quoted field's CRLF counts as one line break.
    yield chunk.replace(/\r\n?/g, '\n');
  }
  if (carry) yield '\n';
}

export interface ReadOptions {
  /**
   * The process's pacer (what a background job takes turns on): after each slice of about SLICE_MS
   * of work (the parser's and what the caller does with each row), the reading takes a turn for
   * that work, a unit a millisecond, so it slows down only while the cores are busier than the
   * worker's share. Without it (the upload's preview, answering the staff) the reading never waits.
   */
  pacer?: { take(units: number): Promise<void> };
  /** Monotonic milliseconds (tests give their own). */
  now?: () => number;
}

/**
 * Work between two turns of the event loop: a request that arrives meanwhile (another church's, in
 * the same process) waits at most about this long for the reading to let it in, at each of its
 * steps. At 5 ms another church's first page took 55–89 ms (p50) during a 50,000-gift preview, at
 * 1 ms 21–30 ms, for the same CPU (bench:import, loaded machine); a turn costs microseconds.
 */
const SLICE_MS = 1;

/**
 * After each slice of work: a turn of the event loop, and with a pacer, a turn on it for the work
 * done (nothing while the slice is short).
 */
function slicer({ pacer, now = () => performance.now() }: ReadOptions): () => Promise<void> | undefined {
  let since = now();
  return () => {
    const worked = now() - since;
    if (worked < SLICE_MS) return undefined;
    return (async () => {
      await pacer?.take(Math.round(worked));
      await nextTurn();
      since = now();
    })();
  };
}

async function* csvRecords(csv: string, opts: ReadOptions): AsyncGenerator<CsvRow> {
  // Lines are counted here rather than by the parser's `info` (a copy of its state for every
  // record: a third of the parser's time on a 50,000-row file); empty lines come through as a
  // single empty cell, counted and skipped.
  const parser = Readable.from(normalisedChunks(csv)).pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: false, trim: false }),
  );
  const slice = slicer(opts);
  let line = 1;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      const at = line;
      // A quoted field with line breaks takes that many lines more.
      line++;
      for (const c of record) if (c.includes('\n')) line += c.split('\n').length - 1;
      if (record.length === 1 && record[0] === '') continue;
      const turn = slice();
      if (turn) await turn;
      yield { line: at, cells: record };
    }
  } catch (err) {
    throw badRequest(`This file could not be read as CSV: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    parser.destroy();
  }
}

/** Read the header row; the rest of the file is parsed as `rows` is read. */
export async function openCsv(csv: string, opts: ReadOptions = {}): Promise<OpenCsv> {
  const records = csvRecords(csv, opts);
  const head = await records.next();
  if (head.done) throw badRequest('The file is empty');
  const headers = head.value.cells.map((h, i) => h.trim() || `Column ${i + 1}`);
  return { headers, rows: records };
}

/** The header row alone (the parser stopped after it). */
export async function csvHeaders(csv: string): Promise<string[]> {
  const { headers, rows } = await openCsv(csv);
  await rows.return(undefined);
  return headers;
}

/** The header, the first rows and (when `count`) how many rows there are; stops early otherwise. */
export async function csvSummary(csv: string, opts: { count: boolean }) {
  const { headers, rows } = await openCsv(csv);
  const preview: string[][] = [];
  let totalRows = 0;
  for await (const r of rows) {
    if (preview.length < PREVIEW_ROWS) preview.push(r.cells);
    totalRows++;
    if (!opts.count && preview.length === PREVIEW_ROWS) break;
  }
  return { headers, preview, totalRows };
}

/** Undo the export's formula guard: an apostrophe before =, +, -, @ is dropped. */
export function unescapeCell(value: string): string {
  return /^'[=+\-@]/.test(value) ? value.slice(1) : value;
}
