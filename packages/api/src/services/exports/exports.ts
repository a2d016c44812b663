import crypto from 'node:crypto';
import type { Selectable } from 'kysely';
import { sql, type Db, type Database } from '@lampstand/db';
import { conflict, isUniqueViolation, notFound } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import type { FileStorage } from '../../providers/storage.js';
import {
  EXPORT_ALREADY_RUNNING,
  EXPORT_NOT_FOUND,
  type ChurchExport,
  type ExportStatus,
} from '../../schemas/exports.js';

/**
 * A church's "Export everything": ask for one (a job builds it, build.ts), follow it, list the
 * recent ones, and open its file for a download (with the emailed link's token, or signed in).
 */

type ExportRow = Selectable<Database['exports']>;

/** An export still queued or running after this long is taken as lost (its worker died) and marked failed. */
const LOST_AFTER_HOURS = 2;
/** Exports shown on the Settings screen. */
const LIST_LIMIT = 10;

export const hashExportToken = (token: string) => crypto.createHash('sha256').update(token, 'utf8').digest('hex');

/** The download address; the emailed link adds `?token=…`. */
export const exportDownloadPath = (id: number) => `/api/exports/${id}/download`;

/** A ready export whose link time has passed reads as expired, before the sweep has marked it. */
function statusOf(r: ExportRow, now: Date): ExportStatus {
  if (r.status === 'ready' && r.expiresAt && r.expiresAt <= now) return 'expired';
  return r.status;
}

function toExport(r: ExportRow, now = new Date()): ChurchExport {
  const status = statusOf(r, now);
  return {
    id: r.id,
    status,
    progress: status === 'ready' ? 100 : r.progress,
    fileSize: r.fileSize,
    error: r.error,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt ? r.finishedAt.toISOString() : null,
    expiresAt: r.expiresAt ? r.expiresAt.toISOString() : null,
    downloadUrl: status === 'ready' ? exportDownloadPath(r.id) : null,
  };
}

/**
 * Queue an export of everything the church owns. One at a time: while one is queued or running a
 * second is a 409 (a unique index holds it, so two clicks at once cannot both start one). The row
 * and its job go together: if the job cannot be queued, no row is left behind.
 */
export async function createExport(
  deps: { db: Db; jobs: JobQueue },
  tenantId: number,
  input: { requestedBy: number },
): Promise<ChurchExport> {
  await deps.db
    .updateTable('exports')
    .set({
      status: 'failed',
      error: 'The export stopped before it finished. Please start another.',
      finishedAt: new Date(),
    })
    .where('userId', '=', tenantId)
    .where('status', 'in', ['queued', 'running'])
    .where('createdAt', '<', sql<Date>`now() - make_interval(hours => ${LOST_AFTER_HOURS})`)
    .execute();
  let row;
  try {
    row = await deps.db
      .insertInto('exports')
      .values({ userId: tenantId, requestedBy: input.requestedBy })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (err) {
    if (isUniqueViolation(err, 'exports_one_running_idx')) throw conflict(EXPORT_ALREADY_RUNNING);
    throw err;
  }
  // Queued once the row is committed: the job queue writes on its own connection and wakes a
  // worker at once, which must find the row (queued inside the insert's transaction, it could run
  // first, find nothing and leave the export waiting for good).
  try {
    await deps.jobs.send('church-export', { exportId: row.id }, { singletonKey: `church-export-${row.id}` });
  } catch (err) {
    await deps.db.deleteFrom('exports').where('id', '=', row.id).where('status', '=', 'queued').execute();
    throw err;
  }
  return toExport(row);
}

export async function getExport(db: Db, tenantId: number, id: number): Promise<ChurchExport> {
  const row = await db
    .selectFrom('exports')
    .selectAll()
    .where('userId', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(EXPORT_NOT_FOUND);
  return toExport(row);
}

/** The church's recent exports, newest first. */
export async function listExports(db: Db, tenantId: number): Promise<{ exports: ChurchExport[] }> {
  const rows = await db
    .selectFrom('exports')
    .selectAll()
    .where('userId', '=', tenantId)
    .orderBy('id', 'desc')
    .limit(LIST_LIMIT)
    .execute();
  const now = new Date();
  return { exports: rows.map((r) => toExport(r, now)) };
}

export type ExportDownload =
  { kind: 'file'; body: Buffer; fileName: string } | { kind: 'not-found' | 'invalid' | 'not-ready' | 'expired' };

const fileDate = (d: Date) => d.toISOString().slice(0, 10);
const fileSlug = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/[\s_-]+/g, '-')
    .toLowerCase()
    .slice(0, 60) || 'church';

/**
 * The export's file, for the emailed link (`token`, checked against its hash) or for the church
 * signed in (`tenantId`): another church's id, or a link with a wrong token, is not found. After its
 * 24 hours the file is deleted and the export marked expired. `db` is the system handle: the
 * emailed link is opened without a session.
 */
export async function openExportDownload(
  deps: { db: Db; storage: FileStorage },
  input: { id: number; token?: string; tenantId?: number; now?: Date },
): Promise<ExportDownload> {
  const row = await deps.db
    .selectFrom('exports as e')
    .innerJoin('users as u', 'u.id', 'e.userId')
    .selectAll('e')
    .select('u.churchName')
    .where('e.id', '=', input.id)
    .executeTakeFirst();
  if (!row) return { kind: 'not-found' };
  if (input.token !== undefined) {
    const given = Buffer.from(hashExportToken(input.token));
    const kept = Buffer.from(row.tokenHash ?? '');
    if (given.length !== kept.length || !crypto.timingSafeEqual(given, kept)) return { kind: 'invalid' };
  } else if (input.tenantId !== row.userId) {
    return { kind: 'not-found' };
  }
  const status = statusOf(row, input.now ?? new Date());
  if (status === 'expired') {
    await expireExport(deps, row);
    return { kind: 'expired' };
  }
  if (status !== 'ready' || !row.storageKey) return { kind: 'not-ready' };
  const object = await deps.storage.get(row.storageKey);
  if (!object) return { kind: 'expired' };
  return {
    kind: 'file',
    body: object.body,
    fileName: `${fileSlug(row.churchName)}-export-${fileDate(row.finishedAt ?? row.createdAt)}.zip`,
  };
}

/** Marks an export expired and deletes its file. */
async function expireExport(deps: { db: Db; storage: FileStorage }, row: ExportRow): Promise<void> {
  if (row.storageKey) await deps.storage.delete(row.storageKey);
  await deps.db
    .updateTable('exports')
    .set({ status: 'expired', storageKey: null })
    .where('id', '=', row.id)
    .where('status', '=', 'ready')
    .execute();
}

/**
 * Every church's exports whose link time has passed: files deleted, marked expired (the nightly
 * maintenance; a download after the time does the same for its own export at once). Returns how many.
 */
export async function expireExports(deps: { db: Db; storage: FileStorage }): Promise<number> {
  const due = await deps.db
    .selectFrom('exports')
    .selectAll()
    .where('status', '=', 'ready')
    .where('expiresAt', '<=', sql<Date>`now()`)
    .execute();
  for (const row of due) await expireExport(deps, row);
  return due.length;
}
