import crypto from 'node:crypto';
import { Zip, ZipDeflate, ZipPassThrough, strToU8 } from 'fflate';
import { sql, tenantDb, type Db } from '@lampstand/db';
import type { EmailTransport } from '../../providers/email.js';
import type { FileStorage } from '../../providers/storage.js';
import type { DeliveryConfig } from '../delivery/config.js';
import { toCsvTable } from '../../render/csv.js';
import { EXPORT_LINK_HOURS } from '../../schemas/exports.js';
import { encodeCell } from './cells.js';
import { hashExportToken } from './exports.js';
import { sendExportReadyEmail } from './email.js';
import { NESTED_DOCUMENTS } from './nested.js';
import { exportReadme, skippedTablesList, tableFile, type ExportManifest } from './readme.js';
import { churchRows, churchTables } from './tables.js';

/**
 * The job behind "Export everything": claim the export, write the ZIP (tables a page at a time,
 * the nested JSON, the uploaded files, manifest.json and README.md), store it through the app's
 * file storage, mark it ready with a fresh download token (kept as its hash) and email the link.
 */

export interface ExportDeps {
  db: Db;
  storage: FileStorage;
  email: EmailTransport;
  config: Pick<DeliveryConfig, 'publicUrl' | 'emailFrom'>;
}

/** A running export that has not moved for this long is taken over by the next run (a worker died). */
const STALE_MINUTES = 15;

/** Stored ZIPs live under this prefix, which `/uploads/*` never serves. */
export const EXPORT_KEY_PREFIX = 'exports/';

async function claimExport(db: Db, exportId: number) {
  return db
    .updateTable('exports')
    .set({ status: 'running', startedAt: new Date(), progress: 0, error: null })
    .where('id', '=', exportId)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'queued'),
        eb.and([
          eb('status', '=', 'running'),
          sql<boolean>`started_at < now() - make_interval(mins => ${STALE_MINUTES})`,
        ]),
      ]),
    )
    .returning(['id', 'userId', 'requestedBy'])
    .executeTakeFirst();
}

/** The ZIP being written: entries one after another, compressed bytes collected as they come. */
function zipWriter() {
  const chunks: Uint8Array[] = [];
  let failure: Error | null = null;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const zip = new Zip((err, chunk, final) => {
    if (err) failure = err;
    else chunks.push(chunk);
    if (final || err) done();
  });
  return {
    async entry(name: string, pieces: AsyncIterable<string> | Iterable<string>, opts: { stored?: boolean } = {}) {
      const file = opts.stored ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
      zip.add(file);
      for await (const piece of pieces) file.push(strToU8(piece));
      file.push(new Uint8Array(0), true);
    },
    bytes(name: string, body: Uint8Array) {
      // Images are compressed already: stored as they are.
      const file = new ZipPassThrough(name);
      zip.add(file);
      file.push(body, true);
    },
    async finish(): Promise<Buffer> {
      zip.end();
      await finished;
      if (failure) throw failure;
      return Buffer.concat(chunks);
    },
  };
}

/** Runs the export `exportId` (nothing when it is not queued, or another run has it). */
export async function runChurchExport(deps: ExportDeps, exportId: number): Promise<void> {
  const claimed = await claimExport(deps.db, exportId);
  if (!claimed) return;
  try {
    await buildExport(deps, claimed);
  } catch (err) {
    await deps.db
      .updateTable('exports')
      .set({
        status: 'failed',
        error: 'The export could not be made. Please try again; if it keeps failing, contact support.',
        finishedAt: new Date(),
      })
      .where('id', '=', exportId)
      .where('status', '=', 'running')
      .execute();
    throw err;
  }
}

async function buildExport(
  deps: ExportDeps,
  job: { id: number; userId: number; requestedBy: number | null },
): Promise<void> {
  const tenantId = job.userId;
  const db = tenantDb(deps.db, tenantId);
  const church = await deps.db
    .selectFrom('users')
    .select(['churchName'])
    .where('id', '=', tenantId)
    .executeTakeFirstOrThrow();
  const tables = await churchTables(db);
  const uploads = await db
    .selectFrom('uploads')
    .select(['storageKey', 'thumbnailKey'])
    .where('userId', '=', tenantId)
    .orderBy('id')
    .execute();
  const steps = tables.length + NESTED_DOCUMENTS.length + uploads.length;
  let done = 0;
  const step = async () => {
    done += 1;
    // Progress is written every few steps, so a church of many small tables does not write a row per table.
    if (done % 5 === 0 || done === steps)
      await deps.db
        .updateTable('exports')
        .set({ progress: Math.min(99, Math.floor((done / steps) * 100)), startedAt: new Date() })
        .where('id', '=', job.id)
        .execute();
  };

  const zip = zipWriter();
  const manifest: ExportManifest = {
    format: 'lampstand-export',
    version: 1,
    church: { name: church.churchName },
    createdAt: new Date().toISOString(),
    tables: [],
    documents: NESTED_DOCUMENTS.map((d) => ({ file: d.file, description: d.description })),
    files: [],
    skippedTables: skippedTablesList(),
  };
  for (const table of tables) {
    let rows = 0;
    async function* csv() {
      yield toCsvTable([table.columns.map((c) => c.name)]);
      for await (const chunk of churchRows(db, tenantId, table)) {
        rows += chunk.length;
        yield toCsvTable(chunk.map((row) => row.map((v, i) => encodeCell(v, table.columns[i]!.type))));
      }
    }
    await zip.entry(tableFile(table.name), csv());
    manifest.tables.push({
      name: table.name,
      file: tableFile(table.name),
      rows,
      columns: table.columns,
      leftOut: table.leftOut,
    });
    await step();
  }
  for (const doc of NESTED_DOCUMENTS) {
    await zip.entry(doc.file, doc.pieces(db, tenantId));
    await step();
  }
  for (const upload of uploads) {
    for (const key of [upload.storageKey, upload.thumbnailKey]) {
      const object = await deps.storage.get(key);
      if (!object) continue;
      zip.bytes(`files/${key}`, object.body);
      manifest.files.push({ file: `files/${key}`, bytes: object.body.length });
    }
    await step();
  }
  await zip.entry('manifest.json', [JSON.stringify(manifest, null, 2)]);
  await zip.entry('README.md', [exportReadme(manifest, NESTED_DOCUMENTS)]);
  const body = await zip.finish();

  const storageKey = `${EXPORT_KEY_PREFIX}u${tenantId}/${crypto.randomBytes(24).toString('hex')}.zip`;
  await deps.storage.put(storageKey, body, 'application/zip');
  const token = crypto.randomBytes(32).toString('base64url');
  const ready = await deps.db
    .updateTable('exports')
    .set({
      status: 'ready',
      progress: 100,
      fileSize: body.length,
      storageKey,
      tokenHash: hashExportToken(token),
      finishedAt: sql<Date>`now()`,
      expiresAt: sql<Date>`now() + make_interval(hours => ${EXPORT_LINK_HOURS})`,
    })
    .where('id', '=', job.id)
    .where('status', '=', 'running')
    .returning(['id', 'expiresAt'])
    .executeTakeFirst();
  if (!ready) {
    // Another run took it over meanwhile: its own file stands, this one is removed.
    await deps.storage.delete(storageKey);
    return;
  }
  if (job.requestedBy !== null)
    await sendExportReadyEmail(deps, { tenantId, exportId: job.id, requestedBy: job.requestedBy, token });
}
