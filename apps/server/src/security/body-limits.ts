import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, RequestPayload } from 'fastify';

/** Every body is at most 1 MiB unless its route sets a larger `bodyLimit`. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** The CSV import: 20 MiB of CSV as a JSON string, with room for escapes. */
export const IMPORT_BODY_LIMIT = 25 * 1024 * 1024;
/**
 * tRPC procedures whose bodies may exceed the default. The app's move-in upload too (a larger
 * export goes through `POST /api/imports` as multipart, up to 50 MB).
 */
const LARGE_TRPC_PROCEDURES = new Set([
  'contactImports.upload',
  'servicePlanner.songs.importChordPro',
  'imports.upload',
]);

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

const tooLargeMessage = (req: FastifyRequest) => req.routeOptions.config.tooLargeMessage ?? 'Request body is too large';

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

  // Synchronous hooks (callback style): no promise per request on routes that have no body.
  app.addHook('onRequest', (req, reply, done) => {
    const type = req.headers['content-type'];
    if (type !== undefined && type.toLowerCase().startsWith('multipart/') && !req.routeOptions.config.multipart) {
      reply.header('connection', 'close');
      reply.code(415).send({ message: 'Uploads are not accepted here: send JSON', code: 'UNSUPPORTED_MEDIA_TYPE' });
      return;
    }
    const length = req.headers['content-length'];
    if (length !== undefined && Number(length) > limitFor(req)) {
      reply.header('connection', 'close');
      reply.code(413).send({ message: tooLargeMessage(req), code: 'PAYLOAD_TOO_LARGE' });
      return;
    }
    done();
  });

  app.addHook('preParsing', (req, reply, payload, done) => {
    done(null, limitedBody(req, reply, payload, opts.bodyTimeoutMs));
  });
}

/** The request's body stream with the route's size and time limits (the payload itself when there is no body). */
function limitedBody(
  req: FastifyRequest,
  reply: FastifyReply,
  payload: RequestPayload,
  bodyTimeoutMs: number,
): RequestPayload {
  if (req.routeOptions.config.multipart && (req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/')) {
    // @fastify/multipart reads the raw request itself (its own size limits apply); only the time
    // limit is added here: a body still arriving after bodyTimeoutMs closes the connection.
    const timer = setTimeout(() => req.raw.socket?.destroy(), bodyTimeoutMs);
    timer.unref();
    req.raw.once('end', () => clearTimeout(timer));
    req.raw.once('close', () => clearTimeout(timer));
    return payload;
  }
  // No body (a GET, an empty POST): nothing to limit or time.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
    return payload;
  }
  const limit = limitFor(req);
  const out = new PassThrough() as PassThrough & { receivedEncodedLength: number };
  out.receivedEncodedLength = 0;
  // Fastify listens for errors while it reads the body; once the client has gone (or the request
  // was answered) nobody does, and an 'error' with no listener would crash the process.
  out.on('error', () => {});
  const fail = (err: Error) => {
    clearTimeout(timer);
    payload.removeAllListeners('data');
    payload.pause();
    reply.header('connection', 'close');
    // Once the error is answered, drop the connection rather than read the rest.
    reply.raw.once('finish', () => req.raw.socket?.destroy());
    out.destroy(err);
  };
  const timer = setTimeout(() => fail(httpError(408, 'Request body timed out')), bodyTimeoutMs);
  timer.unref();
  payload.on('data', (chunk: Buffer) => {
    out.receivedEncodedLength += chunk.length;
    if (out.receivedEncodedLength > limit) return fail(httpError(413, tooLargeMessage(req)));
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
  // A client that disconnects mid-body: stop the timer, there is no one left to answer.
  req.raw.once('close', () => clearTimeout(timer));
  return out;
}
