import { threadId, type MessagePort } from 'node:worker_threads';
import { createDb, tenantDb } from '@lampstand/db';
import { uploadMoveIn } from '@lampstand/api/imports-upload';
import type { ImportOut, ImportSourceId } from '@lampstand/api/schemas/imports';
import { lowerThreadPriority } from '../priority.js';

/**
 * The thread that reads uploaded move-in files (started by `imports-preview-pool.ts`): the CSV
 * parsed, its people or gifts matched against the church's, the totals, and the file and its
 * preview stored, all as `uploadMoveIn` does in the API process otherwise. It imports only the
 * database and the imports' services, and opens its own small connection pool, used through the
 * uploading church's scope only (row-level security applies as it does to the API's requests).
 */

export interface PreviewThreadOptions {
  /** The database, as the API connects to it. */
  url: string;
  rls: boolean;
  pooler: 'session' | 'transaction';
  /** The thread's OS priority (`nice`), the worker's: a preview waits for a core, requests do not. */
  nice: number;
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
  retryAfterSeconds?: number;
}

/** Where a preview was read: the thread's id and its OS priority (null where unknown). */
export interface PreviewThreadSeen {
  threadId: number;
  nice: number | null;
}

export type PreviewReply = PreviewThreadSeen &
  ({ id: number; result: ImportOut } | { id: number; error: PreviewFailure });

function failure(err: unknown): PreviewFailure {
  const e = err as {
    name?: string;
    code?: unknown;
    field?: unknown;
    retryAfterSeconds?: unknown;
    message?: unknown;
    stack?: unknown;
  };
  if (e && e.name === 'AppError' && typeof e.code === 'string')
    return {
      message: String(e.message),
      code: e.code,
      field: typeof e.field === 'string' ? e.field : undefined,
      retryAfterSeconds: typeof e.retryAfterSeconds === 'number' ? e.retryAfterSeconds : undefined,
    };
  return { message: String((e && (e.stack ?? e.message)) || err) };
}

/** Answers the API's requests one after another until it asks the thread to close. */
export function servePreviews(port: MessagePort, options: PreviewThreadOptions): void {
  const db = createDb(options.url, { max: 2, rls: options.rls, pooler: options.pooler });
  const nice = lowerThreadPriority(options.nice);
  port.on('message', (m: PreviewRequest | { close: true }) => {
    if ('close' in m) {
      void db.destroy().finally(() => port.postMessage({ closed: true }));
      return;
    }
    // Only the id outlives this handler: the file's bytes are garbage once read as text.
    const { id, tenantId, bytes, ...input } = m;
    void uploadMoveIn(tenantDb(db, tenantId), tenantId, { ...input, csv: Buffer.from(bytes).toString('utf8') }).then(
      (result) => port.postMessage({ id, threadId, nice, result } satisfies PreviewReply),
      (err: unknown) => port.postMessage({ id, threadId, nice, error: failure(err) } satisfies PreviewReply),
    );
  });
  port.postMessage({ ready: true });
}
