import { Worker } from 'node:worker_threads';
import { AppError, type AppErrorCode } from '@lampstand/api/server';
import type { ImportOut, ImportSourceId } from '@lampstand/api/schemas/imports';
import { threadEntry } from '../thread-entry.js';
import type {
  PreviewReply,
  PreviewRequest,
  PreviewThreadOptions,
  PreviewThreadSeen,
} from './imports-preview-thread.js';

/**
 * A move-in file's upload is read in a worker thread of the API process (`imports-preview-thread.ts`),
 * not on the event loop that answers every church: a preview is a second or more of CPU for a large
 * gifts file (the parse, the matching, loops over every gift, the file's insert) and garbage of its
 * own, and on the API's thread its synchronous stretches and collections delayed other churches'
 * requests by hundreds of milliseconds. The thread has a heap of its own, capped, so its garbage is
 * collected there, and it runs at the worker's lower OS priority, so on a busy machine the API's
 * thread gets a core before it. One thread, started on the first upload and closed after a while without one;
 * uploads from every church take turns on it (each church already moves in one import at a time).
 *
 * The bootstrap is plain JavaScript run with `eval`, as the statements' thread's (thread-entry.ts).
 */
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  if (workerData.loader) (await import(workerData.loader)).register();
  const { servePreviews } = await import(workerData.entry);
  servePreviews(parentPort, workerData.options);
})().catch((err) => parentPort.postMessage({ failed: String((err && err.stack) || err) }));
`;

/**
 * The thread's heap: a 50 MB file read whole, its rows and the preview, with room to spare; a small
 * young generation, so that the preview's short-lived garbage is collected often rather than grown into.
 */
export const PREVIEW_THREAD_LIMITS = { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 16 };

/**
 * How long the thread stays up after an upload, for the next one: long enough for a people file's
 * commit (a minute or two) before the gifts file is uploaded, since starting it is 0.2 s of CPU
 * (its modules, from dist/) and ~13 MB while it is up.
 */
const IDLE_MS = 5 * 60_000;

/** How many previews' threads `ranOn` keeps (it is for tests and diagnosis, not a log that grows). */
const RAN_ON_KEPT = 20;

export interface PreviewUpload {
  fileName: string;
  /** The file as received; its memory is handed to the thread, so the caller must not read it again. */
  data: Buffer;
  source?: ImportSourceId;
  presetId?: number;
  createdBy: number | null;
}

/** The whole of a file's memory, handed over without a copy when the Buffer owns it. */
function transferable(data: Buffer): ArrayBuffer {
  // A small Buffer may share Node's pool with others (and the pool cannot be transferred): copied.
  if (data.byteOffset === 0 && data.byteLength === data.buffer.byteLength && data.buffer instanceof ArrayBuffer)
    return data.buffer;
  return new Uint8Array(data).buffer;
}

export class PreviewThread {
  private worker: Promise<Worker> | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private nextId = 1;
  private idle: NodeJS.Timeout | null = null;
  /** The threads the last previews (up to RAN_ON_KEPT) were read on: their ids (the API's own is 0) and priorities. */
  readonly ranOn: PreviewThreadSeen[] = [];

  constructor(
    private readonly options: PreviewThreadOptions,
    private readonly idleMs = IDLE_MS,
  ) {}

  /** Reads the file in the thread, stores it with its preview; answers as `uploadMoveIn` does. */
  upload(tenantId: number, upload: PreviewUpload): Promise<ImportOut> {
    const { data, ...rest } = upload;
    const request: PreviewRequest = { id: this.nextId++, tenantId, bytes: transferable(data), ...rest };
    this.waiting++;
    if (this.idle) clearTimeout(this.idle);
    const run = this.tail.then(() => this.run(request));
    this.tail = run
      .catch(() => undefined)
      .finally(() => {
        if (--this.waiting === 0) this.idle = setTimeout(() => void this.close(), this.idleMs).unref();
      });
    return run;
  }

  /** Stops the thread, after the uploads already asked for; the next upload starts a new one. */
  close(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    const stop = this.tail.then(() => this.stop());
    this.tail = stop;
    return stop;
  }

  private async stop(): Promise<void> {
    const started = this.worker;
    this.worker = null;
    const worker = await started?.catch(() => null);
    if (!worker) return;
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      // The thread ends its connections first (a terminated thread would drop them mid-session).
      worker.on('message', (m: { closed?: boolean }) => m.closed && void worker.terminate());
      worker.postMessage({ close: true });
    });
  }

  private async run(request: PreviewRequest): Promise<ImportOut> {
    const worker = await (this.worker ??= this.start());
    const reply = await new Promise<PreviewReply>((resolve, reject) => {
      const done = () => {
        worker.off('message', onMessage);
        worker.off('exit', onExit);
      };
      const onMessage = (m: PreviewReply) => {
        if (m.id !== request.id) return;
        done();
        resolve(m);
      };
      const onExit = (code: number) => {
        done();
        reject(new Error(`The move-in preview's thread stopped (exit code ${code})`));
      };
      worker.on('message', onMessage);
      worker.once('exit', onExit);
      worker.postMessage(request, [request.bytes]);
    });
    this.ranOn.push({ threadId: reply.threadId, nice: reply.nice });
    if (this.ranOn.length > RAN_ON_KEPT) this.ranOn.shift();
    if ('result' in reply) return reply.result;
    const { code, message, field, retryAfterSeconds } = reply.error;
    throw code ? new AppError(code as AppErrorCode, message, field, retryAfterSeconds) : new Error(message);
  }

  private start(): Promise<Worker> {
    const { entry, loader } = threadEntry(import.meta.url, 'imports-preview-thread');
    const worker = new Worker(SOURCE, {
      eval: true,
      execArgv: [],
      resourceLimits: PREVIEW_THREAD_LIMITS,
      workerData: { entry, loader, options: this.options },
    });
    worker.unref();
    const started = new Promise<Worker>((resolve, reject) => {
      worker.on('message', (m: { ready?: boolean; failed?: string }) => {
        if (m.ready) resolve(worker);
        if (m.failed) reject(new Error(`The move-in preview's thread did not start: ${m.failed}`));
      });
      worker.once('exit', (code) => reject(new Error(`The move-in preview's thread stopped (exit code ${code})`)));
    });
    // A thread that ran out of memory or stopped is forgotten: the next upload starts another.
    worker.on('error', () => undefined);
    worker.once('exit', () => {
      if (this.worker === started) this.worker = null;
    });
    return started;
  }
}
