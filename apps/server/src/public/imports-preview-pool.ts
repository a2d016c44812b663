import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { AppError, type AppErrorCode } from '@lampstand/api/server';
import type { ImportOut, ImportSourceId } from '@lampstand/api/schemas/imports';
import { threadEntry } from '../thread-entry.js';
import type {
  PreviewProcessOptions,
  PreviewProcessSeen,
  PreviewReply,
  PreviewRequest,
} from './imports-preview-process.js';

/**
 * A move-in file's upload is read in a process of its own (`imports-preview-process.ts`), not on
 * the event loop that answers every church: a preview is a second or more of CPU for a large gifts
 * file (the parse, the matching, loops over every gift, the file's insert) and garbage of its own.
 * A worker thread took it off the event loop, and ran at a lower priority, but V8's garbage
 * collector and compiler helpers belong to the whole process and ran at the API's priority: the
 * preview's collections competed with other churches' requests for the cores. In a process of its
 * own every thread, those helpers included, runs at the worker's lower priority, with a heap of its
 * own, capped. One process, started on the first upload, stopped after a while without one, and
 * started again if it dies; uploads from every church take turns on it (each church already moves
 * in one import at a time).
 *
 * The bootstrap is plain JavaScript run with `-e`, as the statements' thread's (thread-entry.ts):
 * from the TypeScript sources it registers tsx's loader first. The entry, the loader and the
 * options (the database's URL among them) come in the first message, not on the command line.
 * Before it loads anything it lowers the threads node started with it (priority.ts says why; the
 * entry does it again, and says what holds): loading the modules is V8's compiler helpers' busiest
 * time. It exits when its channel closes: no preview process outlives its server, however it stopped.
 */
const SOURCE = `
process.title = 'lampstand move-in previews';
process.once('disconnect', () => process.exit(0));
process.once('message', (m) => {
  const os = require('node:os');
  try {
    for (const tid of require('node:fs').readdirSync('/proc/self/task').map(Number))
      if (m.options.nice > os.getPriority(tid)) os.setPriority(tid, m.options.nice);
  } catch {}
  (async () => {
    if (m.loader) (await import(m.loader)).register();
    const { servePreviews } = await import(m.entry);
    servePreviews(m.options);
  })().catch((err) => {
    process.send({ failed: String((err && err.stack) || err) });
    process.exit(1);
  });
});
`;

/**
 * The process's heap: a 50 MB file read whole, its rows and the preview, with room to spare; a small
 * young generation, so that the preview's short-lived garbage is collected often rather than grown into.
 */
export const PREVIEW_HEAP_LIMITS = { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 16 };

/** The same limits as node's flags (the young generation is two semi-spaces). */
const HEAP_FLAGS = [
  `--max-old-space-size=${PREVIEW_HEAP_LIMITS.maxOldGenerationSizeMb}`,
  `--max-semi-space-size=${PREVIEW_HEAP_LIMITS.maxYoungGenerationSizeMb / 2}`,
];

/**
 * How long the process stays up after an upload, for the next one: long enough for a people file's
 * commit (a minute or two) before the gifts file is uploaded, since starting it is 0.2 s of CPU
 * (its modules, from dist/) and ~40 MB while it is up.
 */
const IDLE_MS = 5 * 60_000;

/** A preview that takes longer has gone wrong (the target is 30 s for the largest file): its process is stopped. */
const TIMEOUT_MS = 2 * 60_000;

/** How many previews' processes `ranIn` keeps (it is for tests and diagnosis, not a log that grows). */
const RAN_IN_KEPT = 20;

const STOPPED =
  'The file could not be read: the process reading it stopped. Please upload it again; if it stops again, split the file.';

export interface PreviewUpload {
  fileName: string;
  data: Buffer;
  source?: ImportSourceId;
  presetId?: number;
  createdBy: number | null;
}

export class PreviewProcess {
  private child: Promise<ChildProcess> | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private nextId = 1;
  private idle: NodeJS.Timeout | null = null;
  private readonly idleMs: number;
  private readonly timeoutMs: number;
  private reading: number | null = null;
  /** The processes the last previews (up to RAN_IN_KEPT) were read in: their pids and priorities. */
  readonly ranIn: PreviewProcessSeen[] = [];

  constructor(
    private readonly options: PreviewProcessOptions,
    opts: { idleMs?: number; timeoutMs?: number } = {},
  ) {
    this.idleMs = opts.idleMs ?? IDLE_MS;
    this.timeoutMs = opts.timeoutMs ?? TIMEOUT_MS;
  }

  /** The process reading a file this moment, if one is (for tests and diagnosis). */
  get readingIn(): number | null {
    return this.reading;
  }

  /** Reads the file in the process, stores it with its preview; answers as `uploadMoveIn` does. */
  upload(tenantId: number, upload: PreviewUpload): Promise<ImportOut> {
    const { data, ...rest } = upload;
    const request: PreviewRequest = { id: this.nextId++, tenantId, bytes: data, ...rest };
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

  /** Stops the process, after the uploads already asked for; the next upload starts a new one. */
  close(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    const stop = this.tail.then(() => this.stop());
    this.tail = stop;
    return stop;
  }

  private async stop(): Promise<void> {
    const started = this.child;
    this.child = null;
    const child = await started?.catch(() => null);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      // It ends its connections first; one that does not answer is stopped.
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      child.send({ close: true }, () => undefined);
    });
  }

  private async run(request: PreviewRequest): Promise<ImportOut> {
    const child = await (this.child ??= this.start());
    // While a preview runs (and while the process starts) its channel keeps this process up; idle, it does not.
    child.channel?.ref();
    const reply = await new Promise<PreviewReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        done();
        child.kill('SIGKILL');
        const seconds = Math.max(1, Math.round(this.timeoutMs / 1000));
        reject(
          new AppError(
            'SERVICE_UNAVAILABLE',
            `Reading the file took too long (over ${seconds} s) and was stopped. Please split the file.`,
          ),
        );
      }, this.timeoutMs);
      const done = () => {
        this.reading = null;
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      const onMessage = (m: PreviewReply) => {
        if (m.id !== request.id) return;
        done();
        resolve(m);
      };
      const onExit = () => {
        done();
        reject(new AppError('SERVICE_UNAVAILABLE', STOPPED));
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
      // A channel already closed: its process is exiting, and the exit answers.
      child.send(request, () => undefined);
      this.reading = child.pid ?? null;
    }).finally(() => child.channel?.unref());
    this.ranIn.push({ pid: reply.pid, nice: reply.nice });
    if (this.ranIn.length > RAN_IN_KEPT) this.ranIn.shift();
    if ('result' in reply) return reply.result;
    const { code, message, field, retryAfterSeconds } = reply.error;
    throw code ? new AppError(code as AppErrorCode, message, field, retryAfterSeconds) : new Error(message);
  }

  private start(): Promise<ChildProcess> {
    const { entry, loader } = threadEntry(import.meta.url, 'imports-preview-process');
    const child = spawn(process.execPath, [...HEAP_FLAGS, '-e', SOURCE], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    // Lowered at once (the threads it starts from here inherit it); it lowers those already started itself.
    try {
      if (child.pid) os.setPriority(child.pid, this.options.nice);
    } catch {
      // Refused (or already gone): the process lowers itself, and says so in each reply.
    }
    child.unref();
    const started = new Promise<ChildProcess>((resolve, reject) => {
      child.on('message', (m: { ready?: boolean; failed?: string }) => {
        if (m.ready) resolve(child);
        if (m.failed) reject(new Error(`The move-in preview's process did not start: ${m.failed}`));
      });
      child.once('exit', () => reject(new AppError('SERVICE_UNAVAILABLE', STOPPED)));
    });
    // A process that could not start, ran out of memory or was killed is forgotten: the next upload starts another.
    child.on('error', () => undefined);
    child.once('exit', () => {
      if (this.child === started) this.child = null;
    });
    child.send({ entry, loader, options: this.options }, () => undefined);
    return started;
  }
}
