import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { restRoutes } from '../../src/rest/route-list.js';
import { pluginRoutes } from '../../src/rest/plugin-routes.js';
import { HttpClient, registerChurch } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';

// Generated from the ONE route table: a new row is covered without writing a test for it.
const app = await sharedTestApp();
const church = await registerChurch(app.url, 'Grace Church');

/** The row's path with every parameter filled in. */
const concrete = (path: string) => path.replace(/\{\w+\}/g, '1');

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const res = await new HttpClient(app.url).get('/api/openapi.json');
    expect(res.status).toBe(200);
    await expect(SwaggerParser.validate(structuredClone(res.body))).resolves.toBeTruthy();
  });

  it('documents exactly the rows of the route table, with typed path parameters', async () => {
    const doc = (await new HttpClient(app.url).get('/api/openapi.json')).body;
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(documented.sort()).toEqual([...restRoutes, ...pluginRoutes].map((r) => `${r.method} ${r.path}`).sort());
    for (const r of restRoutes) {
      const op = doc.paths[r.path][r.method.toLowerCase()];
      for (const param of op.parameters.filter((p: { in: string }) => p.in === 'path')) {
        // Ids are integers of PostgreSQL's range; other parameters (tokens, slugs) have their own type.
        if (/^id$|Id$/.test(param.name)) {
          expect(param.schema, `${r.method} ${r.path} {${param.name}}`).toMatchObject({
            type: 'integer',
            maximum: 2147483647,
          });
        } else expect(param.schema.type, `${r.method} ${r.path} {${param.name}}`).toBe('string');
        expect(op.responses['404'], `${r.method} ${r.path} documents 404`).toBeDefined();
      }
    }
  });

  it('documents POST /api/uploads (a multipart plugin route) as it answers', async () => {
    const doc = (await new HttpClient(app.url).get('/api/openapi.json')).body;
    const op = doc.paths['/api/uploads'].post;
    expect(Object.keys(op.requestBody.content)).toEqual(['multipart/form-data']);
    expect(op.requestBody.content['multipart/form-data'].schema.required).toEqual(['file']);
    expect(Object.keys(op.responses).sort()).toEqual(['201', '400', '401', '413']);
    // What the document promises: 401 signed out, 400 for a JSON body, 201 with the documented fields.
    expect((await new HttpClient(app.url).post('/api/uploads', {})).status).toBe(401);
    const notMultipart = await church.client.post('/api/uploads', {});
    expect(notMultipart.status).toBe(400);
    expect(notMultipart.body.code).toBe('BAD_REQUEST');
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
      'base64',
    );
    const form = new FormData();
    form.append('file', new Blob([png], { type: 'image/png' }), 'dot.png');
    const cookie = [...church.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`${app.url}/api/uploads`, { method: 'POST', body: form, headers: { cookie } });
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, unknown>;
    const schema = op.responses['201'].content['application/json'].schema;
    expect(Object.keys(body).sort()).toEqual([...schema.required].sort());
  });

  it('reads include_counts on GET /api/contact-lists as the document names it', async () => {
    const doc = (await new HttpClient(app.url).get('/api/openapi.json')).body;
    const names = doc.paths['/api/contact-lists'].get.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(['include_counts']);
    await church.client.post('/api/contact-lists', { name: 'Choir' });
    const res = await church.client.get('/api/contact-lists?include_counts=true');
    expect(res.status).toBe(200);
    expect(res.body[0].contactCount).toBe(0);
    expect((await church.client.get('/api/contact-lists?include_counts=maybe')).status).toBe(400);
  });
});

describe('access, for every row of the route table', () => {
  const guarded = restRoutes.filter((r) => r.access !== 'public');
  it.each(guarded.map((r) => [`${r.method} ${r.path}`, r] as const))('%s without a session → 401', async (_, r) => {
    const res = await new HttpClient(app.url).request(r.method, concrete(r.path), r.method === 'GET' ? undefined : {});
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });

  const adminOnly = restRoutes.filter((r) => r.access === 'admin');
  it.each(adminOnly.map((r) => [`${r.method} ${r.path}`, r] as const))('%s as a church → 403', async (_, r) => {
    const res = await church.client.request(r.method, concrete(r.path), r.method === 'GET' ? undefined : {});
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
  });
});
