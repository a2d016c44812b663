import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type Logger } from 'pino';

/** A warning (40), an error (50) or a fatal line (60): pino writes the level first. */
const URGENT = /^\{"level":(?:[4-9]\d|\d{3,})[,}]/;

export interface LogStream {
  write(line: string): void;
  /** Write what is buffered now. */
  flush(): void;
  /** Stop the timer (the buffer is written when the process exits, by pino's own handler). */
  close(): void;
}

/**
 * Production's log lines: written to `dest` (stdout) in writes of up to 4 KiB rather
 * than a system call per request, but never held longer than `flushEveryMs` (1 s), and a warning or
 * an error is written at once: on a quiet server a line used to wait until 4 KiB had gathered or
 * the process exited. `every` is the timer (a test passes its own clock).
 */
export function createLogStream(
  opts: {
    dest?: number | string;
    flushEveryMs?: number;
    every?: (fn: () => void, ms: number) => { unref?(): unknown };
    stop?: (timer: unknown) => void;
  } = {},
): LogStream {
  // The lines gather here; the destination writes each batch at once (and, while one write is under
  // way, the next batch right after it).
  const out = pino.destination({ dest: opts.dest ?? 1, sync: false, minLength: 0 });
  let batch: string[] = [];
  let size = 0;
  const flush = () => {
    if (batch.length === 0) return;
    const text = batch.join('');
    batch = [];
    size = 0;
    out.write(text);
  };
  const timer = (opts.every ?? setInterval)(flush, opts.flushEveryMs ?? 1000);
  timer.unref?.();
  // What is left when the process exits, written before it goes.
  const onExit = () => {
    flush();
    try {
      out.flushSync();
    } catch {
      // Nothing is buffered, or the destination is closed: nothing to write.
    }
  };
  process.once('exit', onExit);
  return {
    write(line: string) {
      batch.push(line);
      size += line.length;
      if (size >= 4096 || URGENT.test(line)) flush();
    },
    flush,
    close() {
      flush();
      (opts.stop ?? ((t) => clearInterval(t as NodeJS.Timeout)))(timer);
      process.off('exit', onExit);
    },
  };
}

/** The process's logger for what happens outside a request (jobs, start-up): JSON lines, as Fastify's. */
export function createLogger(level: string): Logger {
  return pino({ level: level === 'silent' ? 'silent' : level, base: { pid: process.pid } });
}

export type JobLog = (msg: string, fields: { err?: unknown; job?: string; jobId?: string }) => void;

/** Job failures go to the logger with the stack (pino's `err` serializer) and the job's name and id. */
export function jobLog(logger: Logger): JobLog {
  return (msg, fields) => logger.error(fields, msg);
}

/** Which requests the access log writes (no log line per request on the hot path). */
export interface AccessLogPolicy {
  /** One in this many ordinary requests is logged (`ACCESS_LOG_SAMPLE`, default 100; 1 logs every one). */
  sampleEvery: number;
  /** A request slower than this is always logged (`ACCESS_LOG_SLOW_MS`, default 1000). */
  slowMs: number;
}

/**
 * A sampled access log: one line ("request completed" with method, URL, status and time) for every
 * request that failed (status 400 and above, or an error), took longer than `slowMs`, or is the
 * `sampleEvery`-th ordinary one (the line says `sampled: N`, so counts can be scaled back up);
 * nothing for the rest. Fastify's own two lines per request are not written.
 */
export class OneLineRequestLog extends LogController {
  private seen = 0;

  constructor(private readonly policy: AccessLogPolicy = { sampleEvery: 1, slowMs: 1000 }) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const notable = error || reply.statusCode >= 400 || reply.elapsedTime > this.policy.slowMs;
    const sampled = !notable && ++this.seen % Math.max(1, this.policy.sampleEvery) === 0;
    if (!notable && !sampled) return;
    const line = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
      ...(sampled && this.policy.sampleEvery > 1 ? { sampled: this.policy.sampleEvery } : {}),
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
