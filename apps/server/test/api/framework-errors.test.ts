import { describe, expect, it } from 'vitest';
import { registerChurch } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';

// Fastify's own errors answer in the API's one error shape `{ message, code, issues? }`.
const app = await sharedTestApp();
const grace = await registerChurch(app.url, 'Grace Church');
const cookie = [...grace.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

async function answer(path: string, init: RequestInit = {}) {
  const res = await fetch(`${app.url}${path}`, init);
  const text = await res.text();
  expect(res.headers.get('content-type'), `${path}: ${text}`).toMatch(/^application\/json/);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(
    Object.keys(body)
      .filter((k) => k !== 'issues')
      .sort(),
    `${path}: ${text}`,
  ).toEqual(['code', 'message']);
  expect(typeof body.message).toBe('string');
  expect(text).not.toMatch(/FST_|statusCode|"error"/);
  return { status: res.status, body: body as { message: string; code: string } };
}

describe("Fastify's own errors in the one error shape", () => {
  it('a malformed address: GET /trpc/% and GET /api/% answer 400', async () => {
    for (const path of ['/trpc/%', '/api/%', '/api/contacts/%E0%A4%A']) {
      const res = await answer(path);
      expect(res.status, path).toBe(400);
      expect(res.body).toEqual({ message: 'The address is not valid', code: 'BAD_REQUEST' });
    }
  });

  it('a path parameter past the router limit answers 414', async () => {
    // A POST: a GET of that address may fall to the built web app's wildcard (apps/web/dist).
    const res = await answer(`/trpc/${'a'.repeat(9000)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: app.url },
      body: '{}',
    });
    expect(res.status).toBe(414);
    expect(res.body).toEqual({ message: 'The address is too long', code: 'URI_TOO_LONG' });
  });

  it('an unknown route under /api answers 404', async () => {
    const res = await answer('/api/no/such/route', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: app.url },
      body: '{}',
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
    expect((await answer('/api/no/such/route')).status).toBe(404);
  });

  it('malformed JSON answers 400, an unknown content type 415, a body too large 413', async () => {
    const json = { 'content-type': 'application/json', cookie, origin: app.url };
    const bad = await answer('/api/contacts', { method: 'POST', headers: json, body: '{"firstName":' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('BAD_REQUEST');
    const type = await answer('/api/contacts', {
      method: 'POST',
      headers: { 'content-type': 'application/x-unknown', cookie, origin: app.url },
      body: 'x',
    });
    expect([400, 403, 415]).toContain(type.status);
    const big = await answer('/api/contacts', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ firstName: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
