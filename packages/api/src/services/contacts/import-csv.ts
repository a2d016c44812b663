import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parse } from 'csv-parse/sync';
import { badRequest } from '../../errors.js';

/**
 * Reading a CSV file that is in memory as text: a record at a time, each a plain array of its
 * cells, with turns of the event loop between slices of work so other requests run meanwhile.
 */

const PREVIEW_ROWS = 5;

/** One CSV record: the line it starts on, and its cells. */
export interface CsvRow {
  line: number;
  cells: string[];
}

export interface OpenCsv {
  headers: string[];
  /** The records after the header, parsed as they are asked for. */
  rows: AsyncGenerator<CsvRow>;
}

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

/** What the file is read as where it is not plain: csv-parse's reading, whose messages it answers. */
const CSV_PARSE_OPTIONS = { bom: true, relax_column_count: true, skip_empty_lines: false, trim: false } as const;

/**
 * The records of a CSV text, read synchronously from the string (no copy of the file, no Buffer):
 * RFC 4180 as csv-parse reads it with CSV_PARSE_OPTIONS — comma-separated, a field in double
 * quotes may hold commas, line breaks and doubled quotes; a byte-order mark at the start is
 * skipped; CRLF and CR end a line as LF does (and are LF inside a quoted field); rows may have
 * any number of cells. Empty lines (a record of one empty cell) are skipped but counted. Where the
 * file is malformed (a quote inside an unquoted field, text after a closing quote, a quote never
 * closed), the rows before it are read and then csv-parse's own error is thrown, with its words.
 */
export class CsvCursor {
  private pos: number;
  private nextLine = 1;
  /** A record's cells as they are read (a record is handed out as an array of its own length). */
  private readonly scratch: string[] = [];
  /** The line the last record returned starts on (1 for the file's first line). */
  line = 1;

  constructor(private readonly text: string) {
    this.pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  }

  /** The next record's cells (an empty line skipped), or null after the last. */
  next(): string[] | null {
    for (;;) {
      const cells = this.record();
      if (cells === null) return null;
      if (cells.length !== 1 || cells[0] !== '') return cells;
    }
  }

  /** The next record, an empty line as [''], or null at the end. */
  private record(): string[] | null {
    const text = this.text;
    const end = text.length;
    let pos = this.pos;
    if (pos >= end) return null;
    const start = pos;
    const line = this.nextLine;
    let breaks = 0; // line breaks inside quoted fields
    const cells = this.scratch;
    let count = 0;
    for (;;) {
      // One field, from `pos`.
      let value: string;
      let c = pos < end ? text.charCodeAt(pos) : -1;
      if (c === QUOTE) {
        value = '';
        let from = pos + 1;
        for (;;) {
          const q = text.indexOf('"', from);
          if (q < 0) return this.fail(start, line);
          const after = q + 1 < end ? text.charCodeAt(q + 1) : -1;
          if (after === QUOTE) {
            // A doubled quote is one quote of the value.
            value += text.slice(from, q + 1);
            from = q + 2;
            continue;
          }
          // csv-parse closes a quote before a comma, a line break, the end or a NUL character.
          if (after !== -1 && after !== COMMA && after !== LF && after !== CR && after !== 0)
            return this.fail(start, line);
          value += text.slice(from, q);
          pos = q + 1;
          break;
        }
        if (value.includes('\r')) value = value.replace(/\r\n?/g, '\n');
        for (let i = value.indexOf('\n'); i >= 0; i = value.indexOf('\n', i + 1)) breaks++;
        c = pos < end ? text.charCodeAt(pos) : -1;
        if (c === 0) {
          // After a closing quote, a NUL character and what follows it are more of the field.
          const from = pos;
          while (pos < end && (c = text.charCodeAt(pos)) !== COMMA && c !== LF && c !== CR) {
            if (c === QUOTE) return this.fail(start, line);
            pos++;
          }
          value += text.slice(from, pos);
          c = pos < end ? c : -1;
        }
      } else {
        const from = pos;
        while (c !== COMMA && c !== LF && c !== CR && c !== -1) {
          // A quote inside a field that did not start with one.
          if (c === QUOTE) return this.fail(start, line);
          c = ++pos < end ? text.charCodeAt(pos) : -1;
        }
        value = text.slice(from, pos);
      }
      cells[count++] = value;
      if (c === COMMA) {
        pos++;
        continue;
      }
      // The end of the record: a line break or the end of the file.
      if (c === CR && pos + 1 < end && text.charCodeAt(pos + 1) === LF) pos++;
      this.pos = c === -1 ? end : pos + 1;
      this.line = line;
      this.nextLine = line + 1 + breaks;
      return cells.slice(0, count);
    }
  }

  /**
   * A malformed record (starting at `start`, on `line`): csv-parse's reading of it, with the lines
   * before it as empty ones (its message counts lines from the file's start).
   */
  private fail(start: number, line: number): never {
    this.pos = this.text.length;
    const rest = line === 1 ? this.text : '\n'.repeat(line - 1) + this.text.slice(start);
    let message = 'a quote is not where a CSV file can have one';
    try {
      parse(rest.replace(/\r\n?/g, '\n'), CSV_PARSE_OPTIONS);
    } catch (err) {
      message = err instanceof Error ? err.message : String(err);
    }
    throw badRequest(`This file could not be read as CSV: ${message}`);
  }
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

/** A file's records as read by the imports: the cells of each row, its line, and turns between slices of work. */
export interface CsvReader {
  headers: string[];
  /** The next row's cells (empty lines skipped), or null after the last; `line` is where it starts. */
  next(): string[] | null;
  readonly line: number;
  /**
   * After a row's work: a promise to wait for when a slice of work has been done (the event loop's
   * turn, and the pacer's), else undefined (no promise made for each row).
   */
  pause(): Promise<void> | undefined;
}

/** Read the header row; the rest of the file is read a record at a time by `next`. */
export function openCsvReader(csv: string, opts: ReadOptions = {}): CsvReader {
  const cursor = new CsvCursor(csv);
  const head = cursor.next();
  if (head === null) throw badRequest('The file is empty');
  const headers = head.map((h, i) => h.trim() || `Column ${i + 1}`);
  const slice = slicer(opts);
  return {
    headers,
    next: () => cursor.next(),
    get line() {
      return cursor.line;
    },
    pause: slice,
  };
}

async function* csvRows(reader: CsvReader): AsyncGenerator<CsvRow> {
  for (let cells = reader.next(); cells !== null; cells = reader.next()) {
    const line = reader.line;
    const turn = reader.pause();
    if (turn) await turn;
    yield { line, cells };
  }
}

/** Read the header row; the rest of the file is parsed as `rows` is read. */
export async function openCsv(csv: string, opts: ReadOptions = {}): Promise<OpenCsv> {
  const reader = openCsvReader(csv, opts);
  return { headers: reader.headers, rows: csvRows(reader) };
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
