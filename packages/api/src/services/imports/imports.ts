import type { Selectable } from 'kysely';
import type { Database, Db } from '@lampstand/db';
import {
  IMPORT_TOO_LARGE_MESSAGE,
  MAX_IMPORT_BYTES,
  type ImportOut,
  type ImportPolicy,
  type ImportPreview,
  type ImportSourceId,
} from '../../schemas/imports.js';
import { AppError, badRequest, conflict, isUniqueViolation } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import { toCsv } from '../../render/csv.js';
import { findChurchRow } from '../church-rows.js';
import { csvHeaders } from '../contacts/import-csv.js';
import { churchCountryCode } from '../settings/church-settings.js';
import { previewFile } from './preview.js';
import { canUndoKind, undoUntil } from './undo-window.js';
import { detectSource, LAMPSTAND_LABEL, LAMPSTAND_SOURCE, presetSource, SOURCES, type SourceDef } from './sources.js';

/**
 * Moving in: upload a file from another system (a dry run: nothing is written but the upload and
 * its preview), read the preview, confirm (the commit runs in the background, run.ts). Parts:
 * sources.ts (which system, which columns), values.ts and read.ts (the file), people.ts and
 * preview.ts (the dry run), write-people.ts and write-gifts.ts (the commit).
 */

const MISSING = 'Import not found';

/** An import's columns but its file (up to 50 MB, read only by the background commit). */
const COLUMNS = [
  'id',
  'fileName',
  'source',
  'kind',
  'status',
  'preview',
  'policy',
  'totalRows',
  'processedRows',
  'report',
  'error',
  'createdAt',
  'finishedAt',
  'undoneAt',
] as const;
type ImportRow = Pick<Selectable<Database['imports']>, (typeof COLUMNS)[number]>;

function toImport(r: ImportRow, label: string): ImportOut {
  return {
    id: r.id,
    fileName: r.fileName,
    source: r.source as ImportSourceId,
    sourceLabel: label,
    kind: r.kind,
    status: r.status,
    preview: r.preview as unknown as ImportPreview,
    policy: r.policy as ImportOut['policy'],
    totalRows: r.totalRows,
    processedRows: r.processedRows,
    report: (r.report as ImportOut['report']) ?? null,
    error: r.error,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt ? r.finishedAt.toISOString() : null,
    undoUntil:
      r.status === 'completed' && r.finishedAt && canUndoKind(r.kind) ? undoUntil(r.finishedAt).toISOString() : null,
    undoneAt: r.undoneAt ? r.undoneAt.toISOString() : null,
  };
}

/** The source an import was read as (its preset's mapping, for a generic CSV). */
export async function sourceOf(
  db: Db,
  tenantId: number,
  input: { source: string; presetId: number | null; headers: string[] },
): Promise<SourceDef> {
  if (input.source !== 'preset') return detectSource(input.headers, input.source as ImportSourceId);
  if (!input.presetId) throw badRequest('The preset of this import was deleted', 'preset');
  const preset = await findChurchRow(db, tenantId, {
    table: 'importPresets',
    id: input.presetId,
    missing: 'Preset not found',
  });
  return presetSource(preset, input.headers);
}

const labelOf = (r: Pick<ImportRow, 'source'>) =>
  r.source === LAMPSTAND_SOURCE
    ? LAMPSTAND_LABEL
    : (SOURCES.find((s) => s.id === r.source)?.label ?? 'CSV read with a saved mapping');

/** A file that is not text (a spreadsheet, a PDF) is refused before the CSV parser sees it. */
function assertText(csv: string) {
  if (csv.slice(0, 64 * 1024).includes('\u0000') || csv.startsWith('PK\u0003\u0004') || csv.startsWith('%PDF')) {
    throw badRequest('This file is not a CSV file: export it from the other system as CSV', 'file');
  }
}

/** Upload a file: its source recognised, its dry run stored as the import's preview. */
export async function uploadMoveIn(
  db: Db,
  tenantId: number,
  input: { fileName: string; csv: string; source?: ImportSourceId; presetId?: number; createdBy?: number | null },
): Promise<ImportOut> {
  if (Buffer.byteLength(input.csv) > MAX_IMPORT_BYTES)
    throw new AppError('PAYLOAD_TOO_LARGE', IMPORT_TOO_LARGE_MESSAGE, 'file');
  assertText(input.csv);
  const headers = await csvHeaders(input.csv);
  const def = await sourceOf(db, tenantId, {
    // No source asked for (''): it is recognised from the header row.
    source: input.presetId ? 'preset' : (input.source ?? ''),
    presetId: input.presetId ?? null,
    headers,
  });
  const { preview, items } = await previewFile(db, tenantId, {
    def,
    csv: input.csv,
    countryCode: await churchCountryCode(db, tenantId),
  });
  if (preview.rows === 0) throw badRequest('The file has a header row but nothing under it', 'file');
  const row = await db
    .insertInto('imports')
    .values({
      userId: tenantId,
      fileName: input.fileName,
      source: def.id,
      kind: def.kind,
      csv: input.csv,
      presetId: input.presetId ?? null,
      preview: JSON.stringify(preview),
      totalRows: items,
      createdBy: input.createdBy ?? null,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toImport(row, def.label);
}

export async function getMoveIn(db: Db, tenantId: number, id: number): Promise<ImportOut> {
  const row = await findChurchRow(db, tenantId, { table: 'imports', id, missing: MISSING, columns: COLUMNS });
  return toImport(row, labelOf(row));
}

/** The church's imports, newest first (without their files). */
export async function listMoveIns(db: Db, tenantId: number): Promise<ImportOut[]> {
  const rows = await db
    .selectFrom('imports')
    .select(COLUMNS)
    .where('userId', '=', tenantId)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(20)
    .execute();
  return rows.map((r) => toImport(r, labelOf(r)));
}

/** Is one of the church's imports queued or running (one at a time, and nothing undone meanwhile)? */
export async function importRunning(db: Db, tenantId: number): Promise<boolean> {
  const row = await db
    .selectFrom('imports')
    .select('id')
    .where('userId', '=', tenantId)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return row !== undefined;
}

const RUNNING = 'Another import is running for this church; confirm this one when it has finished';

/**
 * Confirm: the import is queued for the background job with the chosen policy. A donations file
 * goes in only when every line can be read (the ledger must equal the file to the cent); one import
 * at a time per church.
 */
export async function commitMoveIn(
  db: Db,
  jobs: JobQueue,
  tenantId: number,
  input: { id: number; policy: ImportPolicy },
): Promise<ImportOut> {
  const row = await db.transaction().execute(async (trx) => {
    const imp = await findChurchRow(trx, tenantId, {
      table: 'imports',
      id: input.id,
      missing: MISSING,
      columns: ['id', 'status', 'kind', 'preview'],
      forUpdate: true,
    });
    if (imp.status !== 'previewed') throw conflict('This import has already been confirmed');
    const preview = imp.preview as unknown as ImportPreview;
    const first = preview.problems[0];
    if (imp.kind === 'gifts' && first) {
      throw badRequest(
        `Row ${first.line}${first.column ? `, column ${first.column}` : ''}: ${first.reason}. ` +
          'Gifts are imported only when every line can be read: correct the file and upload it again',
        'file',
      );
    }
    if (await importRunning(trx, tenantId)) throw conflict(RUNNING);
    try {
      return await trx
        .updateTable('imports')
        .set({ status: 'queued', policy: JSON.stringify(input.policy), progressAt: new Date() })
        .where('id', '=', imp.id)
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
    } catch (err) {
      if (isUniqueViolation(err, 'imports_one_running_idx')) throw conflict(RUNNING);
      throw err;
    }
  });
  await jobs.send('move-in-import', { importId: row.id }, { singletonKey: `move-in-import-${row.id}` });
  return toImport(row, labelOf(row));
}

/** The preview's problems as a CSV file to download: line, column and reason. */
export async function moveInProblems(db: Db, tenantId: number, id: number) {
  const row = await findChurchRow(db, tenantId, {
    table: 'imports',
    id,
    missing: MISSING,
    columns: ['fileName', 'preview'],
  });
  const preview = row.preview as unknown as ImportPreview;
  const csv = toCsv([['Line', 'Column', 'Problem'], ...preview.problems.map((p) => [p.line, p.column, p.reason])]);
  return { fileName: `${row.fileName.replace(/\.csv$/i, '')}-problems.csv`, csv };
}
