import { TRPCError } from '@trpc/server';

export function notFound(what = 'Not found'): TRPCError {
  return new TRPCError({ code: 'NOT_FOUND', message: what });
}
export function badRequest(message: string): TRPCError {
  return new TRPCError({ code: 'BAD_REQUEST', message });
}
export function conflict(message: string): TRPCError {
  return new TRPCError({ code: 'CONFLICT', message });
}
export function unauthorized(message = 'Not authenticated'): TRPCError {
  return new TRPCError({ code: 'UNAUTHORIZED', message });
}
export function forbidden(message = 'You do not have permission to do this'): TRPCError {
  return new TRPCError({ code: 'FORBIDDEN', message });
}
export function tooManyRequests(message: string): TRPCError {
  return new TRPCError({ code: 'TOO_MANY_REQUESTS', message });
}

/** PostgreSQL's unique_violation, for races that a prior check cannot close. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string } | null;
  return !!e && e.code === '23505' && (!constraint || e.constraint === constraint);
}
