import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { ZodError } from 'zod';
import { AppError, APP_ERROR_STATUS, isBadInputDbError, zodIssues, type FieldIssue } from '@lampstand/api/server';

/** The one error shape of the API. */
export interface ErrorBody {
  message: string;
  code: string;
  issues?: FieldIssue[];
}

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  /** Seconds for the Retry-After header (a 429 that knows when to try again). */
  retryAfter?: number;
}

function fromAppError(e: AppError): ErrorResponse {
  const body: ErrorBody = { message: e.message, code: e.code };
  if (e.field) body.issues = [{ path: e.field, message: e.message }];
  return {
    status: APP_ERROR_STATUS[e.code],
    body,
    ...(e.retryAfterSeconds !== undefined ? { retryAfter: e.retryAfterSeconds } : {}),
  };
}

export function toErrorResponse(err: unknown): ErrorResponse {
  if (err instanceof AppError) return fromAppError(err);
  if (err instanceof TRPCError && err.cause instanceof AppError) return fromAppError(err.cause);
  if (err instanceof TRPCError) {
    const status = getHTTPStatusCodeFromError(err);
    if (err.cause instanceof ZodError) {
      const issues = zodIssues(err.cause);
      return { status, body: { message: issues[0]?.message ?? 'Invalid input', code: err.code, issues } };
    }
    if (status >= 500) return { status, body: { message: 'Internal server error', code: err.code } };
    return { status, body: { message: err.message, code: err.code } };
  }
  if (err instanceof ZodError) {
    const issues = zodIssues(err);
    return { status: 400, body: { message: issues[0]?.message ?? 'Invalid input', code: 'BAD_REQUEST', issues } };
  }
  if (isBadInputDbError(err)) return { status: 400, body: { message: 'Invalid input', code: 'BAD_REQUEST' } };
  const e = err as { statusCode?: number; message?: string; code?: string } | null;
  if (e && typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    // Fastify's own client errors (malformed JSON, body too large, wrong content type).
    return { status: e.statusCode, body: { message: e.message ?? 'Bad request', code: codeForStatus(e.statusCode) } };
  }
  return { status: 500, body: { message: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' } };
}

export function codeForStatus(status: number): string {
  const codes: Record<number, string> = {
    400: 'BAD_REQUEST',
    401: 'UNAUTHORIZED',
    403: 'FORBIDDEN',
    404: 'NOT_FOUND',
    405: 'METHOD_NOT_SUPPORTED',
    408: 'TIMEOUT',
    409: 'CONFLICT',
    413: 'PAYLOAD_TOO_LARGE',
    414: 'URI_TOO_LONG',
    415: 'UNSUPPORTED_MEDIA_TYPE',
    429: 'TOO_MANY_REQUESTS',
  };
  return codes[status] ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST');
}
