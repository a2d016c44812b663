import { TRPCError, type AnyRouter } from '@trpc/server';
import { z } from 'zod';
import { isExactOutput, verifyExactOutput } from './exact-output.js';

/**
 * tRPC validates a procedure's input and output with zod's `parseAsync`. Zod 4 compiles an object
 * schema into one generated function (its "fastpass"), but uses it only for a synchronous parse:
 * `parseAsync` walks the schema field by field, which on a page of 25 contacts was most of zod's
 * quarter of a request's CPU (docs/benchmarks.md). The same schemas, parsed with `parse`,
 * give the same values and the same errors (a schema with an async refinement falls back to
 * `parseAsync`): the output is still stripped to the listed fields, so no unlisted column leaves.
 *
 * `useSyncParsers(appRouter)` swaps each procedure's input and output middlewares (what tRPC's
 * `.input()`/`.output()` added, marked `_type`) for ones that call the schemas in `_def.inputs`
 * and `_def.output` synchronously, with tRPC's own error codes (400 for input, 500 for output).
 * An answer marked by `exactOutput` (built in its output form by typed code) is not parsed again.
 */
type Parse = (value: unknown) => unknown;

interface Middleware {
  (opts: never): Promise<unknown>;
  _type?: string;
  _sync?: true;
}

function syncParse(schema: unknown): Parse | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  return (value) => {
    try {
      return schema.parse(value);
    } catch (err) {
      if (err instanceof z.core.$ZodAsyncError) return schema.parseAsync(value);
      throw err;
    }
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && !Array.isArray(v) && typeof v === 'object';

function inputMiddleware(parse: Parse): Middleware {
  const mw = async function inputValidatorMiddleware(opts: {
    getRawInput: () => Promise<unknown>;
    input: unknown;
    next: (o: { input: unknown }) => Promise<unknown>;
  }) {
    const rawInput = await opts.getRawInput();
    let parsed: unknown;
    try {
      parsed = parse(rawInput);
      if (parsed instanceof Promise) parsed = await parsed;
    } catch (cause) {
      throw new TRPCError({ code: 'BAD_REQUEST', cause });
    }
    const input = isObject(opts.input) && isObject(parsed) ? { ...opts.input, ...parsed } : parsed;
    return opts.next({ input });
  } as unknown as Middleware;
  mw._type = 'input';
  mw._sync = true;
  return mw;
}

function outputMiddleware(parse: Parse, schema: z.ZodType): Middleware {
  const mw = async function outputValidatorMiddleware(opts: { next: () => Promise<{ ok: boolean; data?: unknown }> }) {
    const result = await opts.next();
    if (!result.ok) return result;
    try {
      // An answer built in its output form by typed code (exact-output.ts) goes out as it is.
      if (isExactOutput(result.data)) {
        verifyExactOutput(schema, result.data);
        return result;
      }
      let data = parse(result.data);
      if (data instanceof Promise) data = await data;
      return { ...result, data };
    } catch (cause) {
      throw new TRPCError({ message: 'Output validation failed', code: 'INTERNAL_SERVER_ERROR', cause });
    }
  } as unknown as Middleware;
  mw._type = 'output';
  mw._sync = true;
  return mw;
}

/** Replace every procedure's input and output validators by synchronous ones over the same schemas. */
export function useSyncParsers(router: AnyRouter): void {
  const procedures = router._def.procedures as Record<string, { _def: Record<string, unknown> }>;
  for (const proc of Object.values(procedures)) {
    const def = proc._def as { middlewares: Middleware[]; inputs: unknown[]; output?: unknown };
    let nextInput = 0;
    def.middlewares = def.middlewares.map((mw) => {
      if (mw._type === 'input') {
        const parse = syncParse(def.inputs[nextInput++]);
        return parse && !mw._sync ? inputMiddleware(parse) : mw;
      }
      if (mw._type === 'output') {
        const parse = syncParse(def.output);
        return parse && !mw._sync ? outputMiddleware(parse, def.output as z.ZodType) : mw;
      }
      return mw;
    });
  }
}
