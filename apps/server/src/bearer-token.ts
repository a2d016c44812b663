import type { FastifyRequest } from 'fastify';

/** The integrator's token of `Authorization: Bearer <token>`, if the request sends one. */
export function bearerToken(req: Pick<FastifyRequest, 'headers'>): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string' || !/^Bearer\s/i.test(header)) return undefined;
  return header.slice(7).trim(); // a malformed token is simply unknown: 401 where a user is needed
}
