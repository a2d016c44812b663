import type { Selectable } from 'kysely';
import type { Database, Db } from '@lampstand/db';
import { AppError } from '../../../errors.js';
import type { FileStorage } from '../../../providers/storage.js';
import { IMPORT_TOO_LARGE_MESSAGE, MAX_IMPORT_BYTES, type ImportPreview } from '../../../schemas/imports.js';
import { tableDescription } from '../../exports/catalogue.js';
import { readExport, type ReadExport } from '../../exports/read.js';
import { assertNewChurch } from './check.js';
import { restoreChurch } from './restore.js';
import { NOT_MOVED } from './rules.js';
import { planTables } from './schema.js';
import { LAMPSTAND_SOURCE } from '../sources.js';

/**
 * A Lampstand export on the Move in screen: uploaded (read, checked, its counts per table as the
 * preview; nothing else written), confirmed like any import, and restored by the same background
 * job (run.ts), all in one transaction.
 */

/** A ZIP file starts with a local file header. */
export const isZip = (bytes: Uint8Array) =>
  bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

function previewOf(read: ReadExport, moving: Set<string>): ImportPreview {
  const tables = read.manifest.tables
    .filter((t) => moving.has(t.name))
    .map((t) => ({ name: t.name, label: tableDescription(t.name), rows: t.rows }));
  return {
    rows: tables.reduce((s, t) => s + t.rows, 0),
    people: null,
    gifts: null,
    problems: [],
    church: {
      name: read.manifest.church.name,
      exportedAt: read.manifest.createdAt,
      tables,
      files: read.manifest.files.length,
      notMoved: read.manifest.tables
        .filter((t) => NOT_MOVED[t.name] !== undefined && t.rows > 0)
        .map((t) => ({ name: t.name, reason: NOT_MOVED[t.name]! })),
    },
  };
}

/** Upload an export ZIP: refused with words when it is too large, not an export, or the church is not new. */
export async function uploadChurchExport(
  db: Db,
  tenantId: number,
  input: { fileName: string; zip: Uint8Array; createdBy?: number | null },
): Promise<{ id: number }> {
  if (input.zip.length > MAX_IMPORT_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', IMPORT_TOO_LARGE_MESSAGE, 'file');
  const read = readExport(input.zip);
  await assertNewChurch(db, tenantId);
  const plans = await planTables(db, read);
  const preview = previewOf(read, new Set(plans.map((p) => p.name)));
  return db
    .insertInto('imports')
    .values({
      userId: tenantId,
      fileName: input.fileName,
      source: LAMPSTAND_SOURCE,
      kind: 'church',
      csv: '',
      archive: Buffer.from(input.zip),
      preview: JSON.stringify(preview),
      totalRows: preview.rows,
      createdBy: input.createdBy ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

type Claimed = Pick<Selectable<Database['imports']>, 'id' | 'userId'>;

/**
 * The background restore of a confirmed export: one transaction that checks the import is still
 * this run's, writes everything, and marks it completed (its ZIP cleared). A failure writes nothing.
 */
export async function runChurchRestore(db: Db, imp: Claimed, storage: FileStorage | null): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('imports')
      .select(['status', 'archive'])
      .where('id', '=', imp.id)
      .forUpdate()
      .executeTakeFirst();
    if (row?.status !== 'running') return;
    if (!row.archive) throw new AppError('BAD_REQUEST', 'The export file of this import is gone: upload it again.');
    const result = await restoreChurch(trx, { storage }, { tenantId: imp.userId, read: readExport(row.archive) });
    const rows = result.tables.reduce((s, t) => s + t.rows, 0);
    await trx
      .updateTable('imports')
      .set({
        status: 'completed',
        archive: null,
        processedRows: rows,
        finishedAt: new Date(),
        progressAt: new Date(),
        report: JSON.stringify({ people: null, totals: [], fundsCreated: [], church: result }),
      })
      .where('id', '=', imp.id)
      .execute();
  });
}

export { assertNewChurch };
