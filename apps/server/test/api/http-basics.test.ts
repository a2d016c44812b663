import { describe, expect, it } from 'vitest';
import { HttpClient } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';
import { restRoutes } from '../../src/rest/route-list.js';

const app = await sharedTestApp();
const client = new HttpClient(app.url);

describe('HTTP basics', () => {
  it('GET /healthz reports the database', async () => {
    const res = await client.get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'up' });
  });

  it('an unknown /api path is a JSON 404', async () => {
    const res = await client.get('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
    expect((await client.delete('/api/user')).status).toBe(404);
  });

  it('malformed JSON is a 400 in the one error shape, without a stack trace', async () => {
    const res = await fetch(`${app.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"username":',
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body.code).toBe('BAD_REQUEST');
    expect(typeof body.message).toBe('string');
    expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/);
    expect(body.stack).toBeUndefined();
  });

  it('a body that is not an object is a 400 naming the problem', async () => {
    const res = await client.post('/api/login', ['x']);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_REQUEST');
  });

  it('tRPC answers at /trpc with the same messages', async () => {
    const res = await fetch(`${app.url}/trpc/auth.login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'x' }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body.error.message).toBe('Username is required');
    expect(body.error.data.issues).toEqual([{ path: 'username', message: 'Username is required' }]);
    expect(JSON.stringify(body)).not.toContain('stack');
  });
});

describe('GET /api/openapi.json', () => {
  it('documents every row of the route table with schemas from the procedures', async () => {
    const res = await client.get('/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    for (const r of restRoutes) {
      expect(doc.paths[r.path]?.[r.method.toLowerCase()], `${r.method} ${r.path}`).toBeDefined();
    }
    const register = doc.paths['/api/register'].post;
    expect(register.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['username', 'password', 'churchName', 'email']),
    );
    expect(register.responses['201'].content['application/json'].schema.properties).toHaveProperty('churchName');
    expect(JSON.stringify(register.responses)).not.toContain('passwordHash');
    const impersonate = doc.paths['/api/admin/impersonate/{id}'].post;
    expect(impersonate.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'integer', exclusiveMinimum: 0, maximum: 2147483647 } },
    ]);
    expect(impersonate.responses['403']).toBeDefined();
  });
});
