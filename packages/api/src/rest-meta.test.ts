import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { restTag, type Meta } from './rest-meta.js';
import { appRouter } from './root.js';
import {
  adminProcedure,
  protectedProcedure,
  publicProcedure,
  renderProcedure,
  router,
  sessionProcedure,
  streamedProcedure,
} from './trpc.js';

const metaOf = (procedure: { _def: { meta?: unknown } }) => procedure._def.meta as Meta | undefined;
const rest = { method: 'GET', path: '/api/x', summary: 'X', tag: 'X' } as const;

describe('the builders name their access in the meta', () => {
  it.each([
    ['publicProcedure', publicProcedure, 'public'],
    ['protectedProcedure', protectedProcedure, 'signed-in'],
    ['renderProcedure', renderProcedure, 'signed-in'],
    ['streamedProcedure', streamedProcedure, 'signed-in'],
    ['sessionProcedure', sessionProcedure, 'session'],
    ['adminProcedure', adminProcedure, 'admin'],
  ] as const)('%s → %s', (_, builder, access) => {
    const r = router({
      p: builder
        .meta({ rest })
        .input(z.object({}))
        .query(() => null),
    });
    // The procedure's `.meta({ rest })` is merged over the builder's: both are there.
    expect(metaOf(r.p)).toEqual({ access, rest });
    expect(metaOf(builder.query(() => null))).toEqual({ access });
  });

  it('every REST route of the app router has the access of its builder', () => {
    const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: unknown } }>;
    const access = (path: string) => metaOf(procedures[path]!)?.access;
    expect(access('auth.login')).toBe('public');
    expect(access('contacts.get')).toBe('signed-in');
    expect(access('apiKeys.create')).toBe('session');
    expect(access('admin.users')).toBe('admin');
    for (const [path, procedure] of Object.entries(procedures)) {
      if (metaOf(procedure)?.rest) expect(metaOf(procedure)?.access, path).toBeDefined();
    }
    expect(metaOf(procedures['contacts.list']!)?.rest).toMatchObject({
      path: '/api/contacts',
      stream: expect.any(Function),
    });
  });
});

describe('restTag', () => {
  const rest = restTag('Things');

  it('makes the meta of one route of the tag, a method per HTTP method', () => {
    expect(rest.get('/api/things/{id}', 'One thing')).toEqual({
      rest: { method: 'GET', path: '/api/things/{id}', summary: 'One thing', tag: 'Things' },
    });
    expect(
      [rest.post, rest.put, rest.patch, rest.delete].map((route) => route('/api/things', 'X').rest.method),
    ).toEqual(['POST', 'PUT', 'PATCH', 'DELETE']);
  });

  it('adds the other settings as given, and no key it was not given', () => {
    const meta = rest.post('/api/things', 'Add a thing', { status: 201, errors: [409] });
    expect(meta).toEqual({
      rest: { method: 'POST', path: '/api/things', summary: 'Add a thing', tag: 'Things', status: 201, errors: [409] },
    });
    expect(Object.keys(rest.get('/api/things', 'Things').rest)).toEqual(['method', 'path', 'summary', 'tag']);
  });

  it("is what `.meta()` takes, merged over the builder's access", () => {
    const r = router({ p: protectedProcedure.meta(rest.delete('/api/things/{id}', 'Remove')).query(() => null) });
    expect(metaOf(r.p)).toEqual({ access: 'signed-in', ...rest.delete('/api/things/{id}', 'Remove') });
  });
});
