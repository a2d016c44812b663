/**
 * Domain errors. Services throw an `AppError` with a code; the code is mapped to a status once:
 * to a tRPC error in `trpc.ts` and to HTTP in the REST shim. Services never import tRPC.
 */
export type AppErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'TOO_MANY_REQUESTS'
  | 'BAD_GATEWAY'
  | 'SERVICE_UNAVAILABLE';

export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly code: AppErrorCode,
    message: string,
    /** Optional field the message is about (shown on that field in forms). */
    readonly field?: string,
    /** For TOO_MANY_REQUESTS: seconds until a retry can succeed (sent as `Retry-After`). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const APP_ERROR_STATUS: Record<AppErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  /** An outside service (the AI model) answered wrongly or not at all. */
  BAD_GATEWAY: 502,
  /** A feature that needs configuration the server does not have (AI without a key). */
  SERVICE_UNAVAILABLE: 503,
};

export function notFound(what = 'Not found'): AppError {
  return new AppError('NOT_FOUND', what);
}
export function badRequest(message: string, field?: string): AppError {
  return new AppError('BAD_REQUEST', message, field);
}
export function conflict(message: string, field?: string): AppError {
  return new AppError('CONFLICT', message, field);
}
export function unauthorized(message = 'Not authenticated'): AppError {
  return new AppError('UNAUTHORIZED', message);
}
export function forbidden(message = 'You do not have permission to do this'): AppError {
  return new AppError('FORBIDDEN', message);
}
export function tooManyRequests(message: string, retryAfterSeconds?: number): AppError {
  return new AppError('TOO_MANY_REQUESTS', message, undefined, retryAfterSeconds);
}

/** The `Retry-After` seconds an error carries (an AppError, or a tRPC error caused by one). */
export function retryAfterOf(err: unknown): number | undefined {
  const cause = err instanceof AppError ? err : (err as { cause?: unknown } | null)?.cause;
  return cause instanceof AppError && cause.retryAfterSeconds ? Math.ceil(cause.retryAfterSeconds) : undefined;
}

/** PostgreSQL's unique_violation, for races that a prior check cannot close. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string } | null;
  return !!e && e.code === '23505' && (!constraint || e.constraint === constraint);
}

/**
 * PostgreSQL refusing a value (class 22 data exceptions such as a NUL byte, an integer out of
 * range or text too long; 54000 an index row too large): bad input that got past a schema.
 * The last line of defence: it answers 400, never 500. Schemas should refuse such input first.
 */
export function isBadInputDbError(err: unknown): boolean {
  const e = err as { code?: unknown } | null;
  return !!e && typeof e.code === 'string' && /^(22[0-9A-Z]{3}|54000)$/.test(e.code);
}
