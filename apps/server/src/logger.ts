import pino, { type Logger } from 'pino';

/** The process's logger for what happens outside a request (jobs, start-up): JSON lines, as Fastify's. */
export function createLogger(level: string): Logger {
  return pino({ level: level === 'silent' ? 'silent' : level, base: { pid: process.pid } });
}

export type JobLog = (msg: string, fields: { err?: unknown; job?: string; jobId?: string }) => void;

/** Job failures go to the logger with the stack (pino's `err` serializer) and the job's name and id. */
export function jobLog(logger: Logger): JobLog {
  return (msg, fields) => logger.error(fields, msg);
}
