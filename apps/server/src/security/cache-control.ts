import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Whether the request carries credentials: the session cookie or an `Authorization` header (a
 * church's API key). An answer to such a request may depend on who asks.
 */
export function isAuthenticatedRequest(req: FastifyRequest, cookieName: string): boolean {
  if (req.headers.authorization) return true;
  return (req.headers.cookie ?? '').split(';').some((c) => c.trim().startsWith(`${cookieName}=`));
}

/** The headers every answer that has a shared-cache variant sends: the variant is chosen by these. */
export const VARY_BY_CREDENTIALS = 'Cookie, Authorization';

/** `public` made `private`: the same freshness, kept by the browser only. */
export const privateOf = (cacheControl: string) => cacheControl.replace(/\bpublic\b/gi, 'private');

/**
 * The rule: an answer of the API (/api, /trpc) to a request with a session cookie or an API key is
 * never `public` — a shared cache (a CDN, a church's proxy) must not hand one church's answer to
 * another asker. Runs after the handler set its headers; a route with a visitors' variant also
 * sends `Vary: Cookie, Authorization` (see public/show-up.ts).
 */
export function registerPrivateCaching(app: FastifyInstance, opts: { cookieName: string }): void {
  app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!/^\/(api|trpc)(\/|$)/.test(req.url)) return payload;
    const cc = reply.getHeader('cache-control');
    if (typeof cc === 'string' && /\bpublic\b/i.test(cc) && isAuthenticatedRequest(req, opts.cookieName))
      reply.header('cache-control', privateOf(cc));
    return payload;
  });
}
