import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, takeChurchTurn } from '@lampstand/api/server';
import { tenantDb } from '@lampstand/db';
import { createContext, type ContextDeps } from '../context.js';
import { restRoutes, type RestRoute } from './route-list.js';
import { callProcedure, inputSchema, outputSchema, procedureAt } from './procedures.js';
import { buildOpenApiDocument } from './openapi.js';
import { SESSION_COOKIE } from '../session-cookie.js';
import { publicReadCache } from '../security/cache-control.js';

function defaultInput(route: RestRoute, req: FastifyRequest): unknown {
  const params = (req.params ?? {}) as Record<string, string>;
  const hasParams = Object.keys(params).length > 0;
  const source = route.method === 'GET' || route.method === 'DELETE' ? req.query : req.body;
  if (source === undefined || source === null) return hasParams ? { ...params } : undefined;
  if (typeof source !== 'object' || Array.isArray(source)) return source;
  return hasParams ? { ...source, ...params } : source;
}

/** Characters of JSON gathered before a chunk is written (a few dozen contacts). */
const JSON_CHUNK = 16 * 1024;

/** Items checked against `element` and written as one JSON array, in chunks of about JSON_CHUNK. */
async function* jsonArray(items: AsyncIterable<unknown>, element: z.ZodType): AsyncGenerator<string> {
  let chunk = '[';
  let first = true;
  for await (const item of items) {
    chunk += (first ? '' : ',') + JSON.stringify(element.parse(item));
    first = false;
    if (chunk.length >= JSON_CHUNK) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk + ']';
}

/** The element schema of a streamed JSON route's array output; checked when the routes are registered. */
function arrayElement(route: RestRoute): z.ZodType {
  const output = outputSchema(route.procedure);
  if (!(output instanceof z.ZodArray)) throw new Error(`streamed route ${route.path} needs an array output`);
  return output.element as z.ZodType;
}

/**
 * A streamed route: signed in, the input checked by the procedure's schema, then the stream opened
 * (it may answer 404 or 429 before anything is written) and sent with backpressure. The stream's
 * slot is released when the answer ends or the client leaves.
 */
async function sendStream(
  route: RestRoute & { stream: NonNullable<RestRoute['stream']> },
  ctx: Awaited<ReturnType<typeof createContext>>,
  req: FastifyRequest,
  reply: FastifyReply,
) {
  if (!ctx.effectiveUser) throw new AppError('UNAUTHORIZED', 'Not authenticated');
  const schema = inputSchema(route.procedure);
  const input = schema ? schema.parse(defaultInput(route, req)) : undefined;
  const type = route.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8';
  // HEAD (Fastify answers it with the GET handler): the headers only, no cursor and no slot.
  if (req.method === 'HEAD')
    return reply
      .code(route.status ?? 200)
      .type(type)
      .send();
  // The church's handle, as `protectedProcedure` gives every church procedure: row-level security
  // holds the stream to its rows (ctx.db is the system handle, which bypasses it).
  const tenantId = ctx.effectiveUser.id;
  // Whole-table reads may be a second behind: a replica's handle when there is one (ctx.readDb).
  const answer = await route.stream({ db: tenantDb(ctx.readDb ?? ctx.db, tenantId), tenantId }, input);
  reply.raw.once('close', () => void answer.close());
  async function* body() {
    try {
      yield* route.format === 'csv' ? answer.items : jsonArray(answer.items, arrayElement(route));
    } finally {
      await answer.close();
    }
  }
  if (route.format === 'csv') {
    const fileName = (answer.fileName ?? 'export.csv').replace(/"/g, '');
    reply.header('content-disposition', `attachment; filename="${fileName}"`);
  }
  return reply
    .code(route.status ?? 200)
    .type(type)
    .send(Readable.from(body(), { objectMode: false }));
}

/**
 * A route answered with JSON text its service wrote (`jsonText`): signed in, the input checked by
 * the procedure's schema, in the church's call turn, read through the church's handle (row-level
 * security) on the read database, as the procedure would; the text is sent as it comes.
 */
async function sendJsonText(
  route: RestRoute & { jsonText: NonNullable<RestRoute['jsonText']> },
  ctx: Awaited<ReturnType<typeof createContext>>,
  req: FastifyRequest,
  reply: FastifyReply,
) {
  if (!ctx.user || !ctx.effectiveUser) throw new AppError('UNAUTHORIZED', 'Not authenticated');
  const schema = inputSchema(route.procedure);
  const input = schema ? schema.parse(defaultInput(route, req)) : undefined;
  const tenantId = ctx.effectiveUser.id;
  const done = await takeChurchTurn(ctx.db, tenantId);
  try {
    const text = await route.jsonText({ db: tenantDb(ctx.readDb ?? ctx.db, tenantId), tenantId }, input);
    return reply
      .code(route.status ?? 200)
      .type('application/json; charset=utf-8')
      .send(text);
  } finally {
    done();
  }
}

export async function restPlugin(app: FastifyInstance, opts: { deps: ContextDeps; publicUrl: string }): Promise<void> {
  for (const route of restRoutes) {
    procedureAt(route.procedure); // fail at start, not at the first call, if a route's procedure cannot be called
    // Authenticated answers are never for shared caches (see security/cache-control.ts).
    if (route.access !== 'public' && route.image && /\bpublic\b/i.test(route.image.cacheControl)) {
      throw new Error(`route ${route.path} answers who asks: its Cache-Control must be private`);
    }
    if (route.publicCacheSeconds && (route.access !== 'public' || route.method !== 'GET')) {
      throw new Error(`route ${route.path}: only a public GET may be cached by shared caches`);
    }
    if (route.stream && (route.access !== 'signed-in' || (route.format !== 'csv' && !arrayElement(route)))) {
      throw new Error(`streamed route ${route.path} must be signed-in`);
    }
    if (route.jsonText && (route.access !== 'signed-in' || route.method !== 'GET')) {
      throw new Error(`route ${route.path} answered with JSON text must be a signed-in GET`);
    }
    app.route({
      method: route.method,
      url: route.path.replace(/\{(\w+)\}/g, ':$1'),
      ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
      ...(route.publicCacheSeconds ? { onSend: publicReadCache(route.publicCacheSeconds, SESSION_COOKIE) } : {}),
      handler: async (req, reply) => {
        const ctx = await createContext(opts.deps, req);
        if (route.stream) return sendStream({ ...route, stream: route.stream }, ctx, req, reply);
        if (route.jsonText) return sendJsonText({ ...route, jsonText: route.jsonText }, ctx, req, reply);
        const wantsCsv = !!route.csvWhenAccepted && /\btext\/csv\b/i.test(req.headers.accept ?? '');
        const input = defaultInput(route, req);
        const result = await callProcedure(
          ctx,
          route.procedure,
          wantsCsv && input && typeof input === 'object' ? { ...input, format: 'csv' } : input,
        );
        if (route.format === 'file') {
          const file = result as { fileName: string; contentType: string; text?: string; base64?: string };
          return reply
            .code(200)
            .type(file.contentType)
            .header('content-disposition', `attachment; filename="${file.fileName.replace(/"/g, '')}"`)
            .header('x-content-type-options', 'nosniff')
            .send(file.base64 !== undefined ? Buffer.from(file.base64, 'base64') : (file.text ?? ''));
        }
        // A route that may answer CSV (asked by Accept or by `format=csv`) sends the file it returned.
        if (
          route.format === 'csv' ||
          (route.csvWhenAccepted && result && typeof result === 'object' && 'csv' in result)
        ) {
          const file = result as { fileName: string; csv: string };
          return reply
            .code(200)
            .type('text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="${file.fileName.replace(/"/g, '')}"`)
            .send(file.csv);
        }
        if (route.format === 'image') {
          const image = result as { contentType: string; base64: string; etag: string; fileName: string };
          reply
            .header('etag', image.etag)
            .header('cache-control', route.image?.cacheControl ?? 'private, no-cache')
            .header('x-content-type-options', 'nosniff');
          if (route.image?.attachment)
            reply.header('content-disposition', `attachment; filename="${image.fileName.replace(/"/g, '')}"`);
          if (image.contentType === 'image/svg+xml')
            reply.header('content-security-policy', "default-src 'none'; img-src data:; style-src 'unsafe-inline'");
          const match = req.headers['if-none-match'];
          if (match && match.split(',').some((t) => t.trim() === image.etag)) return reply.code(304).send();
          return reply.code(200).type(image.contentType).send(Buffer.from(image.base64, 'base64'));
        }
        return reply.code(route.status ?? 200).send(result ?? null);
      },
    });
  }

  app.get('/api/openapi.json', async () => buildOpenApiDocument(opts.publicUrl));

  // Unknown /api/... paths answer JSON, never the web app's index.html.
  app.all('/api/*', async (_req, reply) => reply.code(404).send({ message: 'Not found', code: 'NOT_FOUND' }));
}
