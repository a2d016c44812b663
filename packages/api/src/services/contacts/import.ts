import type { Selectable } from 'kysely';
import type { ContactImportsTable, Db } from '@lampstand/db';
import type { ContactImport, ImportField } from '../../schemas/contact-imports.js';
import { badRequest, conflict } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import { checkImportSlot } from './church-limits.js';
import { assertChurchRow, findChurchRow } from '../church-rows.js';
import { csvSummary } from './import-csv.js';
import { suggestMapping } from './import-mapping.js';

/**
 * A church's contact import: upload a CSV file, see its columns, start it with a mapping, follow
 * it. Its parts: import-csv.ts (reading the file), import-mapping.ts (suggested fields),
 * import-rows.ts (a row to a contact), import-batch.ts and import-run.ts (the background work).
 */

type ImportRow = Selectable<ContactImportsTable>;

function toImport(r: ImportRow, file?: { headers: string[]; preview: string[][] }): ContactImport {
  return {
    id: r.id,
    fileName: r.fileName,
    status: r.status,
    headers: r.headers,
    preview: file ? file.preview : [],
    suggestedMapping: file ? suggestMapping(file.headers) : {},
    mapping: r.mapping,
    listId: r.listId,
    totalRows: r.totalRows,
    processedRows: r.processedRows,
    createdCount: r.createdCount,
    updatedCount: r.updatedCount,
    skipped: r.skipped,
    error: r.error,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt ? r.finishedAt.toISOString() : null,
  };
}

/** Keep the file, and answer with its columns, a preview and a suggested mapping. */
export async function uploadImport(
  db: Db,
  tenantId: number,
  input: { fileName: string; csv: string },
): Promise<ContactImport> {
  const file = await csvSummary(input.csv, { count: true });
  if (file.totalRows === 0) throw badRequest('The file has a header row but no contacts');
  const row = await db
    .insertInto('contactImports')
    .values({
      userId: tenantId,
      fileName: input.fileName,
      csv: input.csv,
      headers: JSON.stringify(file.headers),
      totalRows: file.totalRows,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toImport(row, file);
}

export async function getImport(
  db: Db,
  tenantId: number,
  id: number,
  opts: { preview?: boolean } = {},
): Promise<ContactImport> {
  const row = await findChurchRow(db, tenantId, { table: 'contactImports', id: id, missing: 'Import not found' });
  const file = opts.preview && row.status === 'uploaded' ? await csvSummary(row.csv, { count: false }) : undefined;
  return toImport(row, file);
}

/**
 * Confirm the mapping and queue the import; the work happens in the background. A church runs
 * one import at a time (429 otherwise, see church-limits.ts).
 */
export async function startImport(
  db: Db,
  jobs: JobQueue,
  tenantId: number,
  input: { id: number; mapping: Record<string, ImportField>; listId?: number },
): Promise<ContactImport> {
  const imp = await findChurchRow(db, tenantId, {
    table: 'contactImports',
    id: input.id,
    columns: ['id', 'status', 'headers'],
    missing: 'Import not found',
  });
  if (imp.status !== 'uploaded') throw conflict('This import has already been started');
  const unknown = Object.keys(input.mapping).filter((h) => !imp.headers.includes(h));
  if (unknown.length) throw badRequest(`The file has no column named '${unknown[0]}'`);
  if (input.listId) {
    await assertChurchRow(db, tenantId, { table: 'contactLists', id: input.listId, missing: 'List not found' });
  }
  const row = await db.transaction().execute(async (trx) => {
    await checkImportSlot(trx, tenantId);
    return trx
      .updateTable('contactImports')
      .set({
        status: 'queued',
        mapping: JSON.stringify(input.mapping),
        listId: input.listId ?? null,
        progressAt: new Date(),
      })
      .where('id', '=', input.id)
      .where('status', '=', 'uploaded')
      .returningAll()
      .executeTakeFirst();
  });
  if (!row) throw conflict('This import has already been started');
  await jobs.send('contact-import', { importId: row.id }, { singletonKey: `contact-import-${row.id}` });
  return toImport(row);
}
