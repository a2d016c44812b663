import { strFromU8, unzipSync } from 'fflate';
import { parse } from 'csv-parse/sync';
import { badRequest } from '../../errors.js';
import { decodeCell } from './cells.js';
import type { ExportManifest } from './readme.js';

/** An export read back: what the importer of a ZIP into a new church starts from. */
export interface ReadExport {
  manifest: ExportManifest;
  readme: string;
  /** Each table's rows, every column by its database name with its value typed back (numbers, dates, JSON). */
  tables: Record<string, Record<string, unknown>[]>;
  /** The nested JSON documents by file name (`json/landing-pages.json`, …). */
  documents: Record<string, unknown>;
  /** The uploaded files by their path in the ZIP (`files/u12/…-large.webp`). */
  files: Record<string, Uint8Array>;
}

const NOT_AN_EXPORT = 'This file is not a Lampstand export (a ZIP with manifest.json and README.md).';

/**
 * Parses an "Export everything" ZIP back into rows, typed by the column types manifest.json names
 * (the inverse of the writer in build.ts). A file that is not such a ZIP is a 400 with words.
 */
export function readExport(zip: Uint8Array): ReadExport {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(zip);
  } catch {
    throw badRequest(NOT_AN_EXPORT, 'file');
  }
  const text = (name: string) => {
    const bytes = entries[name];
    if (!bytes) throw badRequest(`${NOT_AN_EXPORT} ${name} is missing.`, 'file');
    return strFromU8(bytes);
  };
  let manifest: ExportManifest;
  try {
    manifest = JSON.parse(text('manifest.json')) as ExportManifest;
  } catch (err) {
    if (err instanceof SyntaxError) throw badRequest(`${NOT_AN_EXPORT} manifest.json is not JSON.`, 'file');
    throw err;
  }
  if (manifest.format !== 'lampstand-export' || manifest.version !== 1) throw badRequest(NOT_AN_EXPORT, 'file');
  const tables: ReadExport['tables'] = {};
  for (const t of manifest.tables) {
    const cells = parse(text(t.file), {
      // An unquoted empty field is null; `""` is empty text (see toCsvTable).
      cast: (value, context) => (value === '' && !context.quoting ? null : value),
    }) as (string | null)[][];
    const [header, ...rows] = cells;
    const names = t.columns.map((c) => c.name);
    if (!header || header.join(',') !== names.join(','))
      throw badRequest(`${t.file} does not have the columns manifest.json names.`, 'file');
    tables[t.name] = rows.map((row) =>
      Object.fromEntries(t.columns.map((c, i) => [c.name, decodeCell(row[i] ?? null, c.type)])),
    );
  }
  const documents: ReadExport['documents'] = {};
  for (const d of manifest.documents) documents[d.file] = JSON.parse(text(d.file)) as unknown;
  const files: ReadExport['files'] = {};
  for (const f of manifest.files) {
    const bytes = entries[f.file];
    if (bytes) files[f.file] = bytes;
  }
  return { manifest, readme: text('README.md'), tables, documents, files };
}
