import http from 'node:http';
import zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { baseline, type Schema } from '../helpers/openapi-values.js';

// Generated from /api/openapi.json: every documented operation gets random and hostile path
// parameters, query strings and bodies, and must answer below 500, in the error shape, without a
// stack trace. A new route is covered without writing anything. FUZZ_RUNS=500 for a long run.
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);

const app = await startTestApp();
const admin = await registerChurch(app.url, 'Platform Team');
const church = await registerChurch(app.url, 'Grace Church');
const doc = (await new HttpClient(app.url).get('/api/openapi.json')).body as {
  paths: Record<string, Record<string, Operation>>;
};

interface Operation {
  security?: unknown[];
  parameters?: { name: string; in: 'path' | 'query'; schema?: Schema }[];
  requestBody?: { content: { 'application/json': { schema: Schema } } };
  responses: Record<string, unknown>;
}

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udc00y',
    '%00',
    '../../etc/passwd',
    "'; drop table users; --",
    '<script>alert(1)</script>',
    '{{firstName}}',
    'javascript:alert(1)',
    '__proto__',
    'constructor',
    '1e309',
    'NaN',
    '-0',
  ),
  fc.nat(3).map((n) => 'a'.repeat([300, 2_100, 70_000, 600_000][n]!)),
);
const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 2_147_483_647, 2_147_483_648, 2 ** 53, -(2 ** 63), 1e308, 0.5),
);
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hostileNumber,
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(hostileString, hostileNumber), { maxLength: 5 }),
  fc.constant({ __proto__: { admin: true } }),
  fc.dictionary(hostileString, fc.oneof(hostileString, hostileNumber), { maxKeys: 4 }),
);

/** A value that mostly fits the schema's shape, with hostile leaves, or anything at all. */
function fromSchema(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return anyJson;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return fc.oneof(...variants.map((s) => fromSchema(s, depth + 1)), anyJson);
  if (schema.allOf?.length) return fromSchema(Object.assign({}, ...schema.allOf) as Schema, depth + 1);
  if (schema.enum) return fc.oneof(fc.constantFrom(...schema.enum), hostileString);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const props = Object.entries(schema.properties ?? {});
      const shaped = fc.record(Object.fromEntries(props.map(([k, s]) => [k, fromSchema(s, depth + 1)])), {
        requiredKeys: [],
      });
      return fc.oneof(
        { weight: 4, arbitrary: shaped },
        {
          weight: 1,
          arbitrary: shaped.map(
            (o) =>
              JSON.parse(`{"__proto__":{"polluted":1},${JSON.stringify(o).slice(1)}`.replace(/,}$/, '}')) as unknown,
          ),
        },
        { weight: 1, arbitrary: anyJson },
      );
    }
    case 'array':
      return fc.oneof(fc.array(fromSchema(schema.items, depth + 1), { maxLength: 6 }), anyJson);
    case 'integer':
    case 'number':
      return fc.oneof(hostileNumber, hostileString);
    case 'boolean':
      return fc.oneof(fc.boolean(), hostileString);
    default:
      return fc.oneof({ weight: 3, arbitrary: hostileString }, { weight: 1, arbitrary: anyJson });
  }
}

const PERCENT = Array.from({ length: 256 }, (_, b) => `%${b.toString(16).padStart(2, '0')}`);
/** Percent-encodes every byte (lone surrogates become U+FFFD; raw bad UTF-8 comes from the constants). */
const encode = (s: string) => {
  let out = '';
  for (const b of Buffer.from(s)) out += PERCENT[b];
  return out;
};

/** Paths to every leaf (and every array) of a JSON value. */
function leafPaths(value: unknown, at: string[] = []): string[][] {
  if (Array.isArray(value)) return [at];
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leafPaths(v, [...at, k]));
  return [at];
}
function withLeaf(value: unknown, path: string[], leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const copy = { ...(value as Record<string, unknown>) };
  copy[path[0]!] = withLeaf(copy[path[0]!], path.slice(1), leaf);
  return copy;
}
const hostileLeaf = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(
      'a\u0000b',
      'x\ud800',
      2_147_483_648,
      -1,
      1e308,
      'a'.repeat(600_000),
      [2_147_483_648],
      ['\u0000'],
      { __proto__: null, x: 1 },
    ),
  },
  { weight: 2, arbitrary: anyJson },
);
/** The schema's baseline with one leaf replaced by a hostile value. */
function oneHostileLeaf(schema: Schema | undefined): fc.Arbitrary<unknown> {
  const base = baseline(schema);
  const paths = leafPaths(base);
  return fc.tuple(fc.constantFrom(...paths), hostileLeaf).map(([p, leaf]) => withLeaf(base, p, leaf));
}

const pathValue = fc.oneof(
  hostileNumber.map(String),
  hostileString.map((s) => encode(s.slice(0, 1000))),
  fc.constantFrom('2147483648', '99999999999999999999999', '-1', '0', '1.5', '%00', '%ud800', '%E2%82'),
);
const queryValue = fc.oneof(
  hostileString.map((s) => encode(s.slice(0, 1500))),
  hostileNumber.map(String),
  fc.constantFrom('%00', '%ED%A0%80', '[]', 'true', ''),
);

// Routes that end or change the session run on a client of their own.
const SESSION_CHANGING = /logout|impersonat/;

function clientFor(path: string, op: Operation): HttpClient {
  if (SESSION_CHANGING.test(path)) return new HttpClient(app.url);
  if (!op.security?.length) return new HttpClient(app.url);
  return op.responses['403'] ? admin.client : church.client;
}

// The requests go over HTTP to the app on kept-alive connections through node:http rather than
// HttpClient's fetch: fetch's own work (its WHATWG streams and headers, about 0.4 ms a request)
// was a fifth of this file's CPU-seconds at 7,040 requests. What the app receives is what fetch
// sent: the same URL (parsed as fetch parses it), body, cookies and Accept headers; the answer is
// decompressed as fetch would. fetch follows redirects and this does not: none of the document's
// operations answers one (checked below).
const agent = new http.Agent({ keepAlive: true });
async function send(
  client: HttpClient,
  method: string,
  path: string,
  bodyJson: string | undefined,
): Promise<{ status: number; body: any; text: string }> {
  const payload = bodyJson === undefined ? undefined : Buffer.from(bodyJson);
  // The headers fetch adds on its own.
  const headers: Record<string, string> = {
    accept: '*/*',
    'accept-language': '*',
    'accept-encoding': 'gzip, deflate',
    'sec-fetch-mode': 'cors',
    'user-agent': 'node',
  };
  if (payload) headers['content-type'] = 'application/json';
  const cookie = client.cookieHeader();
  if (cookie) headers.cookie = cookie;
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = http.request(new URL(client.baseUrl + path), { method, headers, agent }, resolve);
    req.on('error', reject);
    req.end(payload);
  });
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const encoding = res.headers['content-encoding'];
  const text = (
    encoding === 'gzip'
      ? zlib.gunzipSync(raw)
      : encoding === 'deflate'
        ? zlib.inflateSync(raw)
        : encoding === 'br'
          ? zlib.brotliDecompressSync(raw)
          : raw
  ).toString();
  client.rememberCookies(res.headers['set-cookie'] ?? []);
  let json: any = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode!, body: json, text };
}

const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.entries(ops).map(
    ([method, op]) => [`${method.toUpperCase()} ${path}`, method.toUpperCase(), path, op] as const,
  ),
);

describe('fuzz: every operation of /api/openapi.json', () => {
  it('covers the whole document', () => {
    expect(operations.length).toBeGreaterThan(50);
  });

  it.each(operations)('%s never answers 5xx', { timeout: 120_000 }, async (_name, method, path, op) => {
    const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path');
    const queryParams = (op.parameters ?? []).filter((p) => p.in === 'query');
    // A multipart-only operation (uploads) gets JSON and random bodies anyway: they must be refused, not crash.
    const bodySchema = op.requestBody?.content['application/json']?.schema;
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(...pathParams.map(() => pathValue)),
        fc.tuple(...queryParams.map(() => fc.option(queryValue, { nil: undefined }))),
        fc.option(
          fc.oneof(
            { weight: 2, arbitrary: oneHostileLeaf(bodySchema) },
            { weight: 1, arbitrary: fromSchema(bodySchema) },
          ),
          { nil: undefined, freq: 10 },
        ),
        async (pathValues, queryValues, body) => {
          let url = path;
          pathParams.forEach((p, i) => (url = url.replace(`{${p.name}}`, pathValues[i]!)));
          const qs = queryParams
            .map((p, i) => (queryValues[i] === undefined ? null : `${p.name}=${queryValues[i]}`))
            .filter(Boolean)
            .join('&');
          if (qs) url += `?${qs}`;
          const bodyJson = JSON.stringify(body) as string | undefined;
          const res = await send(
            clientFor(path, op),
            method,
            url,
            // No body (or null) goes as `{}`, as HttpClient sends `body ?? {}`.
            method === 'GET' || method === 'DELETE' ? undefined : body == null ? '{}' : bodyJson,
          );
          const where = `${method} ${url} ${bodyJson?.slice(0, 300)} → ${res.status} ${res.text.slice(0, 300)}`;
          expect(res.status >= 300 && res.status < 400, `${where}: a redirect`).toBe(false);
          // 5xx never, except a documented 503 naming a service this server has not configured (AI).
          if (!(res.status === 503 && op.responses?.['503'] && res.body?.code === 'SERVICE_UNAVAILABLE'))
            expect(res.status, where).toBeLessThan(500);
          expect(res.text, where).not.toMatch(/\n\s+at .+:\d+:\d+/);
          if (res.status >= 400) {
            expect(typeof res.body?.message, where).toBe('string');
            expect(typeof res.body?.code, where).toBe('string');
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});
