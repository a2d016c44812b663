import { threadId, type MessagePort } from 'node:worker_threads';
import { createDb, tenantDb } from '@lampstand/db';
import { uploadMoveIn } from '@lampstand/api/imports-upload';
import type { ImportOut, ImportSourceId } from '@lampstand/api/schemas/imports';

/**
 * The thread that reads uploaded move-in files (started by `imports-preview-pool.ts`): the CSV
 * parsed, its people or gifts matched against the church's, the totals, and the file and its
 * preview stored, all as `uploadMoveIn` does in the API process otherwise. It imports only the
 * database and the imports' services, and opens its own small connection pool, used through the
 * uploading church's scope only (row-level security applies as it does to the API's requests).
 */

export interface PreviewDatabase {
  url: string;
  rls: boolean;
  pooler: 'session' | 'transaction';
}

export interface PreviewRequest {
  id: number;
  tenantId: number;
  fileName: string;
  /** The file's bytes, transferred from the API's thread (UTF-8). */
  bytes: ArrayBuffer;
  source?: ImportSourceId;
  presetId?: number;
  createdBy: number | null;
}

/** An error as it crosses threads: an `AppError`'s code and field, or another error's stack. */
export interface PreviewFailure {
  message: string;
  code?: string;
  field?: string;
}

export type PreviewReply =
  { id: number; threadId: number; result: ImportOut } | { id: number; threadId: number; error: PreviewFailure };

function failure(err: unknown): PreviewFailure {
  const e = err as { name?: string; code?: unknown; field?: unknown; message?: unknown; stack?: unknown };
  if (e && e.name === 'AppError' && typeof e.code === 'string')
    return { message: String(e.message), code: e.code, field: typeof e.field === 'string' ? e.field : undefined };
  return { message: String((e && (e.stack ?? e.message)) || err) };
}

/** Answers the API's requests one after another until it asks the thread to close. */
export function servePreviews(port: MessagePort, database: PreviewDatabase): void {
  const db = createDb(database.url, { max: 2, rls: database.rls, pooler: database.pooler });
  port.on('message', (m: PreviewRequest | { close: true }) => {
    if ('close' in m) {
      void db.destroy().finally(() => port.postMessage({ closed: true }));
      return;
    }
    void uploadMoveIn(tenantDb(db, m.tenantId), m.tenantId, {
      fileName: m.fileName,
      csv: Buffer.from(m.bytes).toString('utf8'),
      source: m.source,
      presetId: m.presetId,
      createdBy: m.createdBy,
    }).then(
      (result) => port.postMessage({ id: m.id, threadId, result } satisfies PreviewReply),
      (err: unknown) => port.postMessage({ id: m.id, threadId, error: failure(err) } satisfies PreviewReply),
    );
  });
  port.postMessage({ ready: true });
}
