import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
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

/**
 * One log line per request ("request completed" with method, URL, status and time) instead of
 * Fastify's two (an "incoming request" line first): half the synchronous log writes on the hot path.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
