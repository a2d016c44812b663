import { afterAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifySession from '@fastify/session';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import type { AppRouter } from '@lampstand/api';
import { getOrCreateSetting, randomSecret } from '@lampstand/db';
import { SESSION_COOKIE, trpcOptionsFor } from '../../src/server.js';
import { PgSessionStore } from '../../src/session-store.js';
import { trpcPlugin } from '../../src/trpc-plugin.js';
import { registerChurch, startTestApp } from '../helpers/test-app.js';

// src/trpc-plugin.ts answers GET queries itself, with tRPC's own steps, instead of through tRPC's
// Fastify adapter (docs/benchmarks.md: it spends a quarter less CPU on each). This test holds it to
// that adapter: the same /trpc options mounted twice on one server, under /trpc by our plugin and
// under /official by tRPC's `fastifyTRPCPlugin`, and 36 requests that must answer alike.

const app = await startTestApp();
await registerChurch(app.url, 'Platform');
const church = await registerChurch(app.url, 'Adapter Church');
const cookie = [...church.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
const contact = (
  await church.client.post('/api/contacts', {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.org',
    phone: '0412345678',
  })
).body as { id: number };
if (typeof contact.id !== 'number') throw new Error('the contact was not created');

type Adapter = 'ours' | 'official';
interface ErrorCall {
  adapter: Adapter;
  code: string;
  message: string;
  path: string | undefined;
  type: string;
  input: unknown;
}
const errorCalls: ErrorCall[] = [];

const CONTEXT_THROWS = 'x-test-context-throws';
function optionsFor(adapter: Adapter): FastifyTRPCPluginOptions<AppRouter>['trpcOptions'] {
  const base = trpcOptionsFor(app.deps, app.server.app.log);
  return {
    ...base,
    createContext: async (opts) => {
      if (opts.req.headers[CONTEXT_THROWS]) throw new Error('the context could not be made');
      return base.createContext(opts);
    },
    onError: (opts) => {
      base.onError!(opts);
      const { error, path, type, input } = opts;
      errorCalls.push({ adapter, code: error.code, message: error.message, path, type, input });
    },
  };
}

// The session scope of src/server.ts (same store and secret, so the church's cookie signs in here).
const twin = Fastify();
const secret = await getOrCreateSetting(app.db, 'session_secret', () => randomSecret());
await twin.register(fastifyCookie);
await twin.register(fastifySession, {
  secret,
  cookieName: SESSION_COOKIE,
  store: new PgSessionStore(app.db),
  saveUninitialized: false,
  rolling: false,
  cookie: { path: '/', httpOnly: true, sameSite: 'lax', secure: false },
});
await twin.register(trpcPlugin, { prefix: '/trpc', trpcOptions: optionsFor('ours') });
await twin.register(fastifyTRPCPlugin, { prefix: '/official', trpcOptions: optionsFor('official') });
const base = await twin.listen({ port: 0, host: '127.0.0.1' });
afterAll(() => twin.close());

interface Case {
  name: string;
  /** After /trpc/ (or /official/): the procedure path and query string. */
  path: string;
  method?: 'GET' | 'POST' | 'HEAD';
  body?: string;
  headers?: Record<string, string>;
  signedIn?: boolean;
}

const q = (input: unknown) => encodeURIComponent(JSON.stringify(input));
const id = contact.id;
const CASES: Case[] = [
  { name: 'a query', path: `contacts.find?input=${q({ page: 1, pageSize: 5 })}` },
  { name: 'a query without input', path: 'contacts.find' },
  { name: 'a query with no input schema', path: 'dashboard.stats' },
  { name: 'one contact', path: `contacts.get?input=${q({ id })}` },
  { name: 'the signed-in user', path: 'auth.me' },
  { name: 'bad JSON input', path: `contacts.find?input=${encodeURIComponent('{"page":')}` },
  { name: 'a zod error', path: `contacts.find?input=${q({ page: -1, pageSize: 'many' })}` },
  { name: 'another zod error', path: `contacts.get?input=${q({ id: 'abc' })}` },
  { name: 'not found', path: `contacts.get?input=${q({ id: 2_000_000_000 })}` },
  { name: 'a batch', path: `contacts.find,contacts.get?batch=1&input=${q({ 0: { page: 1 }, 1: { id } })}` },
  {
    name: 'a batch with an error',
    path: `contacts.get,contacts.get?batch=1&input=${q({ 0: { id }, 1: { id: 2_000_000_000 } })}`,
  },
  {
    name: 'a batch of errors only',
    path: `contacts.get,contacts.find?batch=1&input=${q({ 0: { id: 'x' }, 1: { page: 0 } })}`,
  },
  { name: 'a batch with non-object input', path: `contacts.find,auth.me?batch=1&input=${q('x')}` },
  { name: 'a batch with bad JSON', path: `contacts.find,auth.me?batch=1&input=%7B` },
  { name: 'a batch with one input missing', path: `dashboard.stats,contacts.find?batch=1&input=${q({ 1: {} })}` },
  { name: 'a batch with an encoded comma', path: `auth.me%2Cdashboard.stats?batch=1` },
  { name: 'a batch of one', path: `auth.me?batch=1&input=${q({})}` },
  { name: 'an unknown procedure', path: 'contacts.nope' },
  { name: 'an unknown procedure in a batch', path: `auth.me,nope.nope?batch=1` },
  { name: 'a mutation by GET', path: `contacts.create?input=${q({ firstName: 'X' })}` },
  { name: 'a mutation by GET in a batch', path: `auth.me,contacts.delete?batch=1&input=${q({ 1: { id } })}` },
  { name: 'a query streamed over REST only', path: `contacts.list?input=${q({ id: 1 })}` },
  { name: 'another one', path: `contacts.export?input=${q({})}` },
  {
    name: 'a streamed batch (trpc-accept)',
    path: `auth.me,dashboard.stats?batch=1`,
    headers: { 'trpc-accept': 'application/jsonl' },
  },
  { name: 'a streamed batch (accept)', path: `auth.me?batch=1`, headers: { accept: 'application/jsonl' } },
  { name: 'HEAD', path: 'auth.me', method: 'HEAD' },
  { name: 'a query by POST', path: 'contacts.find', method: 'POST', body: '{}' },
  { name: 'a mutation with a zod error', path: 'contacts.create', method: 'POST', body: '{"firstName":""}' },
  {
    name: 'a batch of mutations with errors',
    path: 'contacts.create,contacts.update?batch=1',
    method: 'POST',
    body: JSON.stringify({ 0: {}, 1: { id: 'x' } }),
  },
  {
    name: 'a mutation on an unknown id',
    path: 'contacts.delete',
    method: 'POST',
    body: JSON.stringify({ id: 2_000_000_000 }),
  },
  { name: 'a mutation with bad JSON', path: 'contacts.create', method: 'POST', body: '{"firstName":' },
  {
    name: 'a mutation as text/plain',
    path: 'contacts.create',
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'text/plain' },
  },
  { name: 'connection params', path: `auth.me?connectionParams=1&input=${q({})}` },
  { name: 'signed out', path: `contacts.find?input=${q({})}`, signedIn: false },
  { name: 'signed out, a batch', path: `auth.me,dashboard.stats?batch=1`, signedIn: false },
  { name: 'an unknown API key', path: 'auth.me', signedIn: false, headers: { authorization: 'Bearer nope' } },
  { name: 'a throwing context', path: 'auth.me', headers: { [CONTEXT_THROWS]: '1' } },
  { name: 'a throwing context, a batch', path: `auth.me,contacts.find?batch=1`, headers: { [CONTEXT_THROWS]: '1' } },
  { name: 'commas without batch=1', path: 'auth.me,dashboard.stats' },
];

/** Headers that describe the connection or the moment, not the answer. */
const PER_RESPONSE = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

async function ask(adapter: Adapter, c: Case) {
  const prefix = adapter === 'ours' ? '/trpc/' : '/official/';
  const headers: Record<string, string> = { ...c.headers };
  if (c.signedIn !== false) headers.cookie = cookie;
  if (c.body !== undefined) headers['content-type'] ??= 'application/json';
  const before = errorCalls.length;
  const res = await fetch(base + prefix + c.path, { method: c.method ?? 'GET', headers, body: c.body });
  const body = await res.text();
  const kept = [...res.headers].filter(([k]) => !PER_RESPONSE.has(k)).sort(([a], [b]) => a.localeCompare(b));
  const calls = errorCalls.slice(before).map(({ adapter: _a, ...call }) => call);
  return { status: res.status, headers: Object.fromEntries(kept), body, onError: calls };
}

describe('our tRPC adapter answers as tRPC’s own', () => {
  it('has 39 requests to compare', () => {
    expect(CASES).toHaveLength(39);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(39);
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s: same status, headers, body and onError calls', async (_, c) => {
    const official = await ask('official', c);
    const ours = await ask('ours', c);
    expect(ours).toEqual(official);
  });

  it('answered GET queries itself (so the comparison above compares two implementations)', async () => {
    // tRPC's handler answers through a Fetch Response (a streamed body); ours sends a Buffer.
    const ours = await fetch(`${base}/trpc/auth.me`, { headers: { cookie } });
    const official = await fetch(`${base}/official/auth.me`, { headers: { cookie } });
    expect(ours.headers.get('content-length')).toBe(String((await ours.text()).length));
    expect(official.headers.get('transfer-encoding')).toBe('chunked');
    await official.text();
  });

  it('answered a JSON POST of a mutation itself, as tRPC’s own (but for the moment of the change)', async () => {
    const post = (prefix: string) =>
      fetch(`${base}/${prefix}/contacts.update`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({
          id,
          firstName: 'Ada',
          lastName: 'Byron',
          email: 'ada@example.org',
          phone: '0412345678',
        }),
      });
    const ours = await post('trpc');
    const official = await post('official');
    const [oursBody, officialBody] = [await ours.text(), await official.text()];
    expect(ours.headers.get('content-length')).toBe(String(Buffer.byteLength(oursBody)));
    expect(official.headers.get('transfer-encoding')).toBe('chunked');
    expect(ours.status).toBe(200);
    expect(official.status).toBe(200);
    const moment = (b: string) => b.replace(/"updatedAt":"[^"]+"/g, '"updatedAt":"…"');
    expect(JSON.parse(oursBody)).toMatchObject({ result: { data: { id, lastName: 'Byron' } } });
    expect(moment(oursBody)).toBe(moment(officialBody));
  });
});
