import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createContext, type ContextDeps } from '../context.js';
import { restRoutes, type RestRoute } from './routes.js';
import { callProcedure, procedureAt } from './procedures.js';
import { buildOpenApiDocument } from './openapi.js';

function defaultInput(route: RestRoute, req: FastifyRequest): unknown {
  const params = (req.params ?? {}) as Record<string, string>;
  const hasParams = Object.keys(params).length > 0;
  const source = route.method === 'GET' || route.method === 'DELETE' ? req.query : req.body;
  if (source === undefined || source === null) return hasParams ? { ...params } : undefined;
  if (typeof source !== 'object' || Array.isArray(source)) return source;
  return hasParams ? { ...source, ...params } : source;
}

export async function restPlugin(app: FastifyInstance, opts: { deps: ContextDeps; publicUrl: string }): Promise<void> {
  for (const route of restRoutes) {
    procedureAt(route.procedure); // fail at start, not at the first call, if the table is wrong
    app.route({
      method: route.method,
      url: route.path.replace(/\{(\w+)\}/g, ':$1'),
      ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
      handler: async (req, reply) => {
        const ctx = await createContext(opts.deps, req);
        const result = await callProcedure(ctx, route.procedure, defaultInput(route, req));
        if (route.format === 'csv') {
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
