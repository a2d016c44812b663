import type { FastifyInstance } from 'fastify';

export const UNTRUSTED_PROXY_WARNING =
  'A request came through a proxy (X-Forwarded-For) but TRUST_PROXY is not set: every visitor is seen ' +
  "as the proxy's address, so throttling (sign-in, registration, public forms) counts them all as one. " +
  'Set TRUST_PROXY to the number of proxy hops (e.g. 1) or the proxy addresses.';

/**
 * Once per process, not per request: the first request with X-Forwarded-For while TRUST_PROXY is
 * unset logs a warning (the deployment is behind a proxy the server does not trust).
 */
export function registerProxyWarning(app: FastifyInstance, opts: { trustProxy: unknown }): void {
  if (opts.trustProxy !== false && opts.trustProxy !== undefined) return;
  let warned = false;
  app.addHook('onRequest', (req, _reply, done) => {
    if (!warned && req.headers['x-forwarded-for'] !== undefined) {
      warned = true;
      app.log.warn({ remoteAddress: req.socket.remoteAddress }, UNTRUSTED_PROXY_WARNING);
    }
    done();
  });
}
