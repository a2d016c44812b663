import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { initTRPC } from '@trpc/server';
import * as core from '@trpc/server/unstable-core-do-not-import';

// trpc-plugin.ts is built on tRPC's internal module (`unstable-core-do-not-import`), which may change
// in any release. These are the parts it uses, in the way it uses them: a tRPC upgrade that moves
// one fails here, by name (test/api/trpc-adapter.test.ts then checks the answers against tRPC's own
// adapter). tRPC is pinned to one exact version for the same reason: upgrade it on purpose.

const t = initTRPC.context<{ user: string }>().create({
  errorFormatter: ({ shape }) => ({ ...shape, data: { ...shape.data, formatted: true } }),
});
const router = t.router({
  a: t.router({
    hello: t.procedure.input(z.object({ n: z.number() })).query(({ input, ctx }) => `${ctx.user} ${input.n}`),
  }),
  save: t.procedure.mutation(() => 'saved'),
});
const config = router._def._config;

describe("tRPC's internal module, as trpc-plugin.ts uses it", () => {
  it('exports what the adapter imports', () => {
    for (const name of [
      'getErrorShape',
      'getHTTPStatusCode',
      'getProcedureAtPath',
      'getTRPCErrorFromUnknown',
      'isAsyncIterable',
      'isObject',
      'isPromise',
      'transformTRPCResponse',
    ] as const)
      expect(typeof core[name], name).toBe('function');
    expect(new core.TRPCError({ code: 'BAD_REQUEST', message: 'x' })).toBeInstanceOf(Error);
  });

  it('keeps a TRPCError as it is, and the cause an input parse error is given', () => {
    const cause = new SyntaxError('Unexpected token');
    const error = new core.TRPCError({ code: 'BAD_REQUEST', message: cause.message, cause });
    expect(error.cause).toBe(cause);
    expect(error.message).toBe('Unexpected token');
    // A context that throws a TRPCError answers with that error's code, not a 500.
    expect(core.getTRPCErrorFromUnknown(error)).toBe(error);
  });

  it("reads the router's config: its transformer and error formatter", () => {
    expect(config.transformer.input.deserialize({ n: 1 })).toEqual({ n: 1 });
    expect(typeof config.errorFormatter).toBe('function');
  });

  it('finds a procedure by its dotted path, its type on `_def`, and calls it as the adapter does', async () => {
    const hello = await core.getProcedureAtPath(router, 'a.hello');
    expect(hello?._def.type).toBe('query');
    expect((await core.getProcedureAtPath(router, 'save'))?._def.type).toBe('mutation');
    expect(await core.getProcedureAtPath(router, 'a.nope')).toBeNull();
    const call = (input: unknown) =>
      hello!({
        path: 'a.hello',
        getRawInput: async () => input,
        ctx: { user: 'ann' },
        type: 'query',
        signal: new AbortController().signal,
        batchIndex: 0,
      });
    expect(await call({ n: 2 })).toBe('ann 2');
    const err = await call({ n: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(core.TRPCError);
    expect((err as core.TRPCError).code).toBe('BAD_REQUEST');
  });

  it('turns any throw into a TRPCError and shapes it with the formatter; statuses from shapes', () => {
    const error = core.getTRPCErrorFromUnknown(new Error('boom'));
    expect(error).toBeInstanceOf(core.TRPCError);
    expect(error.code).toBe('INTERNAL_SERVER_ERROR');
    const shape = core.getErrorShape({
      config,
      ctx: undefined,
      error,
      input: undefined,
      path: 'a.hello',
      type: 'query',
    });
    expect(shape).toMatchObject({
      message: 'boom',
      code: -32603,
      data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500, path: 'a.hello', formatted: true },
    });
    const notFound = core.getErrorShape({
      config,
      ctx: undefined,
      error: new core.TRPCError({ code: 'NOT_FOUND', message: 'gone' }),
      input: undefined,
      path: undefined,
      type: 'query',
    });
    const ok = { result: { data: 1 } };
    expect(core.getHTTPStatusCode([ok])).toBe(200);
    expect(core.getHTTPStatusCode([{ error: notFound }])).toBe(404);
    expect(core.getHTTPStatusCode([ok, { error: notFound }])).toBe(207);
    expect(core.transformTRPCResponse(config, [ok, { error: notFound }])).toEqual([ok, { error: notFound }]);
    expect(core.transformTRPCResponse(config, ok)).toEqual(ok);
  });

  it('tells objects, promises and async iterables apart', () => {
    async function* gen() {}
    expect(core.isObject({})).toBe(true);
    expect(core.isObject(null)).toBe(false);
    expect(core.isPromise(Promise.resolve())).toBe(true);
    expect(core.isPromise({})).toBe(false);
    expect(core.isAsyncIterable(gen())).toBe(true);
    expect(core.isAsyncIterable([])).toBe(false);
  });

  it('every package of tRPC is on the one exact version', () => {
    const versions = ['../../packages/api', '.', '../web'].flatMap((dir) => {
      const pkg = JSON.parse(fs.readFileSync(new URL(`${dir}/package.json`, `file://${process.cwd()}/`), 'utf8')) as {
        dependencies?: Record<string, string>;
        devDependencies?: Record<string, string>;
      };
      const all = { ...pkg.dependencies, ...pkg.devDependencies };
      return Object.entries(all).filter(([name]) => name.startsWith('@trpc/'));
    });
    expect(versions.length).toBeGreaterThanOrEqual(5);
    expect(new Set(versions.map(([, v]) => v)).size).toBe(1);
    expect(versions[0]![1]).toMatch(/^\d+\.\d+\.\d+$/);
    // The lockfile installs that version: the module these tests read is the one pinned.
    const installed = JSON.parse(
      fs.readFileSync(new URL('node_modules/@trpc/server/package.json', `file://${process.cwd()}/`), 'utf8'),
    ) as { version: string };
    expect(installed.version).toBe(versions[0]![1]);
  });
});
