import { initTRPC, type AnyProcedure } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import type { Meta } from '@lampstand/api';
import { restRoutes, restRoutesOf } from './route-list.js';

const t = initTRPC.meta<Meta>().create();
const signedIn = t.procedure.meta({ access: 'signed-in' });
const flat = (r: { _def: { procedures: unknown } }) => r._def.procedures as Record<string, AnyProcedure>;

describe('the REST routes read from the procedures', () => {
  it('makes a route of each `.meta({ rest })` entry, with the access of the builder', () => {
    const r = t.router({
      things: t.router({
        list: signedIn
          .meta({
            rest: [
              { method: 'GET', path: '/api/things', summary: 'Things', tag: 'Things' },
              { method: 'GET', path: '/api/stuff', summary: 'The same things', tag: 'Things', errors: [429] },
            ],
          })
          .query(() => []),
        create: signedIn
          .meta({ rest: { method: 'POST', path: '/api/things', summary: 'Add', tag: 'Things', status: 201 } })
          .mutation(() => null),
        internal: signedIn.query(() => null),
      }),
    });
    expect(restRoutesOf(flat(r))).toEqual([
      {
        method: 'GET',
        path: '/api/things',
        summary: 'Things',
        tag: 'Things',
        procedure: 'things.list',
        access: 'signed-in',
      },
      {
        method: 'GET',
        path: '/api/stuff',
        summary: 'The same things',
        tag: 'Things',
        errors: [429],
        procedure: 'things.list',
        access: 'signed-in',
      },
      {
        method: 'POST',
        path: '/api/things',
        summary: 'Add',
        tag: 'Things',
        status: 201,
        procedure: 'things.create',
        access: 'signed-in',
      },
    ]);
  });

  it('refuses a route whose builder names no access', () => {
    const r = t.router({
      bare: t.procedure.meta({ rest: { method: 'GET', path: '/x', summary: 'X', tag: 'X' } }).query(() => 1),
    });
    expect(() => restRoutesOf(flat(r))).toThrow('procedure bare has a REST route but its builder names no access');
  });

  it("reads the app router's routes, one per method and path", () => {
    expect(restRoutes.length).toBeGreaterThan(150);
    const keys = restRoutes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(restRoutes.find((r) => r.path === '/api/admin/users')).toMatchObject({
      procedure: 'admin.users',
      access: 'admin',
    });
  });
});
