import crypto from 'node:crypto';
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

/**
 * A route-level onSend hook for a public read (RestRoute.publicCacheSeconds): visitors' answers
 * may be cached `seconds` by shared caches, with a weak ETag (If-None-Match → 304); a signed-in
 * asker's (cookie or API key) are `private, no-cache`, as its answer may say who asks (isOwner).
 */
export function publicReadCache(seconds: number, cookieName: string) {
  return async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (req.method !== 'GET' || reply.statusCode !== 200) return payload;
    const signedIn = isAuthenticatedRequest(req, cookieName);
    reply.header('cache-control', signedIn ? 'private, no-cache' : `public, max-age=${seconds}`);
    reply.header('vary', VARY_BY_CREDENTIALS);
    if (typeof payload === 'string') {
      const etag = `W/"${crypto.createHash('sha1').update(payload).digest('base64url')}"`;
      reply.header('etag', etag);
      if (req.headers['if-none-match'] === etag) {
        reply.code(304);
        return '';
      }
    }
    return payload;
  };
}
