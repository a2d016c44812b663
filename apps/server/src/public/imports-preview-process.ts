import { createDb, tenantDb } from '@lampstand/db';
import { uploadMoveIn } from '@lampstand/api/imports-upload';
import type { ImportOut, ImportSourceId } from '@lampstand/api/schemas/imports';
import { lowerProcessPriority, processPriority } from '../priority.js';

/**
 * The process that reads uploaded move-in files (started by `imports-preview-pool.ts`): the CSV
 * parsed, its people or gifts matched against the church's, the totals, and the file and its
 * preview stored, all as `uploadMoveIn` does in the API process otherwise. It imports only the
 * database and the imports' services, and opens its own small connection pool (the parent sends
 * the API's URL over the IPC channel, never on the command line), used through the uploading
 * church's scope only (row-level security applies as it does to the API's requests).
 */

export interface PreviewProcessOptions {
  /** The database, as the API connects to it. */
  url: string;
  rls: boolean;
  pooler: 'session' | 'transaction';
  /** The process's OS priority (`nice`), the worker's: a preview waits for a core, requests do not. */
  nice: number;
}

export interface PreviewRequest {
  id: number;
  tenantId: number;
  fileName: string;
  /** The file's bytes (UTF-8), sent over the channel with the advanced serialization. */
  bytes: Uint8Array;
  source?: ImportSourceId;
  presetId?: number;
  createdBy: number | null;
}

/** An error as it crosses processes: an `AppError`'s code and field, or another error's stack. */
export interface PreviewFailure {
  message: string;
  code?: string;
  field?: string;
  retryAfterSeconds?: number;
}

/** Where a preview was read: the process's id and the lowest priority (nice) any of its threads has. */
export interface PreviewProcessSeen {
  pid: number;
  nice: number;
}

export type PreviewReply = PreviewProcessSeen &
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

const send = (m: object) => process.send!(m);

/** Answers the API's requests one after another until it asks the process to close. */
export function servePreviews(options: PreviewProcessOptions): void {
  // First, before any work: every thread of this process, V8's helpers included, below the API's priority.
  lowerProcessPriority(options.nice);
  const db = createDb(options.url, { max: 2, rls: options.rls, pooler: options.pooler });
  process.on('message', (m: PreviewRequest | { close: true }) => {
    if ('close' in m) return void db.destroy().finally(() => process.exit(0));
    // Only the id outlives this handler: the file's bytes are garbage once read as text.
    const { id, tenantId, bytes, ...input } = m;
    const csv = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    const seen = () => ({ pid: process.pid, nice: processPriority() });
    void uploadMoveIn(tenantDb(db, tenantId), tenantId, { ...input, csv }).then(
      (result) => send({ id, ...seen(), result } satisfies PreviewReply),
      (err: unknown) => send({ id, ...seen(), error: failure(err) } satisfies PreviewReply),
    );
  });
  send({ ready: true });
}
