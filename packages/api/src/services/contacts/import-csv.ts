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

async function* csvRecords(csv: string): AsyncGenerator<CsvRow> {
  const parser = Readable.from(normalisedChunks(csv)).pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true, trim: false }),
  );
  try {
    for await (const r of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      // info.lines is where a record ends; a quoted field with line breaks starts that many lines earlier.
      const breaks = r.record.reduce((n, c) => n + (c.match(/\n/g)?.length ?? 0), 0);
      yield { line: r.info.lines - breaks, cells: r.record };
    }
  } catch (err) {
    throw badRequest(`This file could not be read as CSV: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    parser.destroy();
  }
}

/** Read the header row; the rest of the file is parsed as `rows` is read. */
export async function openCsv(csv: string): Promise<OpenCsv> {
  const records = csvRecords(csv);
  const head = await records.next();
  if (head.done) throw badRequest('The file is empty');
  const headers = head.value.cells.map((h, i) => h.trim() || `Column ${i + 1}`);
  return { headers, rows: records };
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
