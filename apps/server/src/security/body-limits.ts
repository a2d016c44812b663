import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Every body is at most 1 MiB unless its route sets a larger `bodyLimit`. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** The CSV import: 20 MiB of CSV as a JSON string, with room for escapes. */
export const IMPORT_BODY_LIMIT = 25 * 1024 * 1024;
/** tRPC procedures whose bodies may exceed the default. */
const LARGE_TRPC_PROCEDURES = new Set(['contactImports.upload']);

function httpError(statusCode: number, message: string): Error & { statusCode: number } {
  return Object.assign(new Error(message), { statusCode });
}

/** The limit for one request: a tRPC request is as large as its largest procedure allows. */
function limitFor(req: FastifyRequest): number {
  const url = req.url.split('?')[0] ?? '';
  if (url.startsWith('/trpc/')) {
    const procedures = decodeURIComponent(url.slice('/trpc/'.length)).split(',');
    return procedures.every((p) => LARGE_TRPC_PROCEDURES.has(p)) ? IMPORT_BODY_LIMIT : DEFAULT_BODY_LIMIT;
  }
  return req.routeOptions.bodyLimit ?? DEFAULT_BODY_LIMIT;
}

/**
 * Body size and time limits for every route (hooks on the root instance, so routes registered by
 * any plugin inherit them): `multipart/form-data` refused unless the route's config says
 * `multipart: true`; a declared or streamed body over the route's limit → 413 before it is read in
 * full; a body that does not arrive within `bodyTimeoutMs` → 408 and the connection closed.
 */
export function registerBodyLimits(app: FastifyInstance, opts: { bodyTimeoutMs: number }): void {
  // tRPC's one route takes the largest procedure's limit; the hooks below hold the others to 1 MiB.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/trpc')) route.bodyLimit = IMPORT_BODY_LIMIT;
  });

  app.addHook('onRequest', async (req, reply) => {
    const type = (req.headers['content-type'] ?? '').toLowerCase();
    if (type.startsWith('multipart/') && !req.routeOptions.config.multipart) {
      reply.header('connection', 'close');
      return reply
        .code(415)
        .send({ message: 'Uploads are not accepted here: send JSON', code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limitFor(req)) {
      reply.header('connection', 'close');
      return reply.code(413).send({ message: 'Request body is too large', code: 'PAYLOAD_TOO_LARGE' });
    }
  });

  app.addHook('preParsing', async (req, reply, payload) => {
    if (
      req.routeOptions.config.multipart &&
      (req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/')
    ) {
      // @fastify/multipart reads the raw request itself (its own size limits apply); only the time
      // limit is added here: a body still arriving after bodyTimeoutMs closes the connection.
      const timer = setTimeout(() => req.raw.socket?.destroy(), opts.bodyTimeoutMs);
      timer.unref();
      req.raw.once('end', () => clearTimeout(timer));
      req.raw.once('close', () => clearTimeout(timer));
      return payload;
    }
    const limit = limitFor(req);
    const out = new PassThrough() as PassThrough & { receivedEncodedLength: number };
    out.receivedEncodedLength = 0;
    const fail = (err: Error) => {
      clearTimeout(timer);
      payload.removeAllListeners('data');
      payload.pause();
      reply.header('connection', 'close');
      // Once the error is answered, drop the connection rather than read the rest.
      reply.raw.once('finish', () => req.raw.socket?.destroy());
      out.destroy(err);
    };
    const timer = setTimeout(() => fail(httpError(408, 'Request body timed out')), opts.bodyTimeoutMs);
    timer.unref();
    payload.on('data', (chunk: Buffer) => {
      out.receivedEncodedLength += chunk.length;
      if (out.receivedEncodedLength > limit) return fail(httpError(413, 'Request body is too large'));
      if (!out.write(chunk)) payload.pause();
    });
    out.on('drain', () => payload.resume());
    payload.on('end', () => {
      clearTimeout(timer);
      out.end();
    });
    payload.on('error', (err) => {
      clearTimeout(timer);
      out.destroy(err);
    });
    return out;
  });
}
