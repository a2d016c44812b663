import { z } from 'zod';
import { restRoutes, type RestRoute } from './route-list.js';
import { inputSchema, outputSchema } from './procedures.js';
import { pluginRoutes } from './plugin-routes.js';

const errorSchema = {
  type: 'object',
  required: ['message', 'code'],
  properties: {
    message: { type: 'string' },
    code: { type: 'string' },
    issues: {
      type: 'array',
      items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } },
    },
  },
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete out.$schema;
  return out;
}

function pathParams(route: RestRoute): string[] {
  return [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/**
 * The OpenAPI 3.1 document, built from the procedures' REST routes and zod schemas, plus the
 * plugin routes documented by hand (`plugin-routes.ts`: multipart uploads).
 */
export function buildOpenApiDocument(serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of restRoutes) {
    const params = pathParams(route);
    const input = inputSchema(route.procedure);
    const output = outputSchema(route.procedure);
    const inputJson = input ? jsonSchema(input, 'input') : undefined;
    const inputProps = (inputJson?.properties ?? {}) as Record<string, Record<string, unknown>>;
    const errors = new Set(route.errors ?? []);
    if (params.length > 0) errors.add(404);
    const operation: Record<string, unknown> = {
      operationId: route.procedure.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase()),
      summary: route.summary,
      tags: [route.tag],
      security:
        route.access === 'public'
          ? []
          : route.access === 'signed-in'
            ? [{ sessionCookie: [] }, { apiKey: [] }]
            : route.access === 'station'
              ? [{ sessionCookie: [] }, { apiKey: [] }, { stationCookie: [] }]
              : [{ sessionCookie: [] }],
      parameters: params.map((name) => ({
        name,
        in: 'path',
        required: true,
        schema: inputProps[name] ?? { type: 'string' },
      })),
      responses: {
        [String(route.status ?? 200)]: {
          description: 'Success',
          content:
            route.format === 'image'
              ? {
                  'image/png': { schema: { type: 'string', format: 'binary' } },
                  'image/svg+xml': { schema: { type: 'string' } },
                }
              : route.format === 'file'
                ? Object.fromEntries(
                    (route.fileTypes ?? ['application/octet-stream']).map((t) => [
                      t,
                      { schema: { type: 'string', format: 'binary' } },
                    ]),
                  )
                : output
                  ? {
                      'application/json': { schema: jsonSchema(output, 'output') },
                      ...(route.csvWhenAccepted ? { 'text/csv': { schema: { type: 'string' } } } : {}),
                    }
                  : undefined,
        },
        '400': errorResponse('Invalid input: the message names the field'),
        ...(route.access !== 'public' ? { '401': errorResponse('Not signed in') } : {}),
        ...(route.access === 'admin' ? { '403': errorResponse('Not an administrator (API keys never are)') } : {}),
        ...(route.access === 'session' ? { '403': errorResponse('Not available with an API key') } : {}),
        ...(errors.has(404) ? { '404': errorResponse("Not found (or another church's)") } : {}),
        ...(errors.has(409) ? { '409': errorResponse('Conflict with existing data') } : {}),
        ...(errors.has(413) ? { '413': errorResponse('Request body too large') } : {}),
        ...(errors.has(429) ? { '429': errorResponse('Too many requests: try again later') } : {}),
        ...(errors.has(503)
          ? { '503': errorResponse('Not configured on this server (the message says what to set)') }
          : {}),
      },
    };
    if (input && route.method !== 'GET' && route.method !== 'DELETE') {
      const body = structuredClone(inputJson!);
      const props = body.properties as Record<string, unknown> | undefined;
      for (const p of params) delete props?.[p];
      if (Array.isArray(body.required)) body.required = (body.required as string[]).filter((r) => !params.includes(r));
      if (props && Object.keys(props).length > 0) {
        operation.requestBody = { required: true, content: { 'application/json': { schema: body } } };
      }
    } else if (input && route.method === 'GET') {
      const q = inputJson!;
      const props = (q.properties ?? {}) as Record<string, Record<string, unknown>>;
      const required = new Set((q.required as string[] | undefined) ?? []);
      for (const [name, schema] of Object.entries(props)) {
        if (params.includes(name)) continue;
        (operation.parameters as unknown[]).push({ name, in: 'query', required: required.has(name), schema });
      }
    }
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation;
  }
  for (const route of pluginRoutes) {
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = {
      operationId: route.path.replace(/^\/api\//, '').replace(/\W+(\w)/g, (_, c: string) => c.toUpperCase()),
      summary: route.summary,
      tags: [route.tag],
      security: route.access === 'public' ? [] : [{ sessionCookie: [] }],
      parameters: Object.entries(route.pathParams ?? {}).map(([name, values]) => ({
        name,
        in: 'path',
        required: true,
        schema: { type: 'string', enum: values },
      })),
      requestBody: route.requestBody,
      responses: {
        [String(route.status)]: { description: 'Success', content: { 'application/json': { schema: route.response } } },
        '400': errorResponse('Invalid input: the message names the field'),
        ...(route.access !== 'public' ? { '401': errorResponse('Not signed in') } : {}),
        ...(route.errors.includes(403)
          ? { '403': errorResponse('Not signed (or wrongly signed) by the provider') }
          : {}),
        ...(route.errors.includes(404) ? { '404': errorResponse('Not found') } : {}),
        ...(route.errors.includes(413) ? { '413': errorResponse('Request body too large') } : {}),
        ...(route.errors.includes(429) ? { '429': errorResponse('Too many requests: try again later') } : {}),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Lampstand API',
      version: '1.0.0',
      description:
        'REST API for integrators. Every path calls the same procedure the web app uses over tRPC at /trpc. ' +
        'Authenticate with an API key created in Settings, sent as `Authorization: Bearer <key>` (no cookie, no CSRF ' +
        'check; the key acts as its church and never reaches administration routes), or sign in with POST /api/login ' +
        'and send the session cookie. Errors are { message, code, issues? }.',
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'lampstand.sid' },
        stationCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'lampstand.station',
          description: 'A paired check-in station (POST /api/check-in/pair): the check-in routes only, today only',
        },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: "A church's API key from Settings → API keys: `Authorization: Bearer lsk_…`",
        },
      },
      schemas: { Error: errorSchema },
    },
    paths,
  };
}
