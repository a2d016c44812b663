import type { FastifyInstance, FastifyRequest } from 'fastify';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CsrfOptions {
  /** The session cookie's name: only requests that carry it are checked. */
  cookieName: string;
  /** Origins allowed to make cookie-authenticated writes (PUBLIC_URL's and ALLOWED_ORIGINS). */
  allowedOrigins: string[];
}

const CROSS_SITE = { status: 403, message: 'Cross-site request refused' } as const;

/**
 * A browser's request from another site: an `Origin` that is neither the request's own nor an
 * allowed one, or, without `Origin`, a `Sec-Fetch-Site` other than `same-origin`. A script that
 * sends neither is not a browser page.
 */
export function isCrossSite(headers: FastifyRequest['headers'], allowedOrigins: readonly string[]): boolean {
  const origin = headers.origin;
  if (origin !== undefined) {
    const host = headers.host;
    const sameHost = !!host && (origin === `http://${host}` || origin === `https://${host}`);
    return !sameHost && !allowedOrigins.includes(origin);
  }
  const site = headers['sec-fetch-site'];
  return site !== undefined && site !== 'same-origin';
}

/** Why a request is refused, or null when it may proceed. Pure: unit-tested on its own. */
export function csrfVerdict(
  req: Pick<FastifyRequest, 'method' | 'url' | 'headers'> & {
    multipart?: boolean;
    publicNoCsrf?: boolean;
    sameOrigin?: boolean;
  },
  opts: CsrfOptions,
): { status: 403 | 415; message: string } | null {
  if (SAFE_METHODS.has(req.method)) return null;
  const url = req.url.split('?')[0] ?? '';
  // A public page's POST that signs a browser in or sets a cookie (the portal's sign-in link and
  // code, a manage link, a confirm link): refused from another site, so a page elsewhere cannot
  // sign a visitor's browser in as the attacker (login CSRF). No cookie is needed for that attack.
  if (req.sameOrigin) return isCrossSite(req.headers, opts.allowedOrigins) ? CROSS_SITE : null;
  if (!(url.startsWith('/api/') || url.startsWith('/trpc/')) || req.publicNoCsrf) return null;
  // An API key (Authorization: Bearer; the cookie is then ignored, see context.ts): nothing a
  // browser sends on its own (a cross-site Authorization header needs a preflight).
  if (/^Bearer\s/i.test(req.headers.authorization ?? '')) return null;
  const cookie = req.headers.cookie ?? '';
  // Without the cookie (signing in, registering: the answer sets one) a browser page of another
  // site is refused too; a script without Origin is not.
  if (!cookie.split(';').some((c) => c.trim().startsWith(`${opts.cookieName}=`)))
    return isCrossSite(req.headers, opts.allowedOrigins) ? CROSS_SITE : null;

  // POST is the one write a page can send cross-site without a CORS preflight: it must be JSON
  // (a form or a no-cors fetch cannot send application/json). PUT, PATCH and DELETE always preflight.
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const jsonOk = type === 'application/json' || (req.multipart === true && type === 'multipart/form-data');
  if (req.method === 'POST' && !jsonOk)
    return { status: 415, message: 'Send the request as JSON (content-type: application/json)' };

  // No Origin: a script of an integrator (no Sec-Fetch-Site either), or a browser that says where
  // the request comes from.
  return isCrossSite(req.headers, opts.allowedOrigins) ? CROSS_SITE : null;
}

/**
 * CSRF defence for cookie-authenticated state changes on /api and /trpc: JSON only (an HTML form
 * cannot send it without CORS) and an allowed Origin (or Sec-Fetch-Site: same-origin); for a
 * browser's POST there without the cookie (signing in) the same origin rule; and for the routes
 * marked `sameOrigin` wherever they live (public pages that set a cookie) the same origin rule.
 * Runs on every route of the instance, including routes that plugins register later.
 */
export function registerCsrf(app: FastifyInstance, opts: CsrfOptions): void {
  app.addHook('onRequest', (req, reply, done) => {
    const verdict = csrfVerdict(
      {
        method: req.method,
        url: req.url,
        headers: req.headers,
        multipart: req.routeOptions.config.multipart,
        publicNoCsrf: req.routeOptions.config.publicNoCsrf,
        sameOrigin: req.routeOptions.config.sameOrigin,
      },
      opts,
    );
    if (!verdict) return done();
    reply
      .code(verdict.status)
      .send({ message: verdict.message, code: verdict.status === 403 ? 'FORBIDDEN' : 'UNSUPPORTED_MEDIA_TYPE' });
  });
}
