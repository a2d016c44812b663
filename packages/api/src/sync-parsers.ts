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
 * and `_def.output` synchronously, with tRPC's own error codes (400 for input, 500 for output);
 * an input validator right before the output validator becomes one middleware that does both.
 * An answer marked by `exactOutput` (built in its output form by typed code) is not parsed again.
 */
type Parse = (value: unknown) => unknown;

interface Middleware {
  (opts: never): Promise<unknown>;
  _type?: string;
  _sync?: true;
  /** An input validator's parse, for joining it with the output validator after it. */
  _parse?: Parse;
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

type Next = (o?: { input: unknown }) => Promise<{ ok: boolean; data?: unknown }>;

/** The input, parsed (a failure is BAD_REQUEST), merged over an earlier input's object as tRPC does. */
async function parsedInput(parse: Parse, opts: { getRawInput: () => Promise<unknown>; input: unknown }) {
  const rawInput = await opts.getRawInput();
  let parsed: unknown;
  try {
    parsed = parse(rawInput);
    if (parsed instanceof Promise) parsed = await parsed;
  } catch (cause) {
    throw new TRPCError({ code: 'BAD_REQUEST', cause });
  }
  return isObject(opts.input) && isObject(parsed) ? { ...opts.input, ...parsed } : parsed;
}

/** The answer, parsed by the output schema (a failure is an internal error), or passed on when exact. */
async function parsedOutput(parse: Parse, schema: z.ZodType, result: { ok: boolean; data?: unknown }) {
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
}

function inputMiddleware(parse: Parse): Middleware {
  const mw = async function inputValidatorMiddleware(opts: {
    getRawInput: () => Promise<unknown>;
    input: unknown;
    next: Next;
  }) {
    return opts.next({ input: await parsedInput(parse, opts) });
  } as unknown as Middleware;
  mw._type = 'input';
  mw._sync = true;
  return mw;
}

function outputMiddleware(parse: Parse, schema: z.ZodType): Middleware {
  const mw = async function outputValidatorMiddleware(opts: { next: Next }) {
    return parsedOutput(parse, schema, await opts.next());
  } as unknown as Middleware;
  mw._type = 'output';
  mw._sync = true;
  return mw;
}

/**
 * An input validator and the output validator beside it as one step of the chain (each step of
 * tRPC's chain copies the call's options): the input parsed, the rest of the chain, the answer parsed.
 */
function inputAndOutputMiddleware(parseIn: Parse, parseOut: Parse, schema: z.ZodType): Middleware {
  const mw = async function inputOutputValidatorMiddleware(opts: {
    getRawInput: () => Promise<unknown>;
    input: unknown;
    next: Next;
  }) {
    const input = await parsedInput(parseIn, opts);
    return parsedOutput(parseOut, schema, await opts.next({ input }));
  } as unknown as Middleware;
  mw._type = 'input+output';
  mw._sync = true;
  return mw;
}

/**
 * Replace every procedure's input and output validators by synchronous ones over the same schemas;
 * an input validator next to the output validator becomes one step.
 */
export function useSyncParsers(router: AnyRouter): void {
  const procedures = router._def.procedures as Record<string, { _def: Record<string, unknown> }>;
  for (const proc of Object.values(procedures)) {
    const def = proc._def as { middlewares: Middleware[]; inputs: unknown[]; output?: unknown };
    if (def.middlewares.some((mw) => mw._sync)) continue; // done already
    const parseOut = syncParse(def.output);
    let nextInput = 0;
    const swapped: Middleware[] = [];
    for (const mw of def.middlewares) {
      const parseIn = mw._type === 'input' ? syncParse(def.inputs[nextInput++]) : undefined;
      const previous = swapped[swapped.length - 1];
      if (mw._type === 'output' && parseOut && previous?._type === 'input' && previous._parse) {
        swapped[swapped.length - 1] = inputAndOutputMiddleware(previous._parse, parseOut, def.output as z.ZodType);
      } else if (parseIn) {
        swapped.push(Object.assign(inputMiddleware(parseIn), { _parse: parseIn }));
      } else if (mw._type === 'output' && parseOut) {
        swapped.push(outputMiddleware(parseOut, def.output as z.ZodType));
      } else {
        swapped.push(mw);
      }
    }
    def.middlewares = swapped;
  }
}
