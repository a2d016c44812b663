import type { AnyProcedure } from '@trpc/server';
import type { z } from 'zod';
import type { ProcedurePath } from '@lampstand/api';
import { appRouter } from '@lampstand/api/server';
import type { Context } from '@lampstand/api/server';

/** Follow a dotted path through a router or a caller ('contacts.get'); a caller is a proxy, so index it. */
function walk(root: object, path: ProcedurePath): unknown {
  let node: unknown = root;
  for (const key of path.split('.')) {
    if (node === null || (typeof node !== 'object' && typeof node !== 'function')) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The procedure at a path of the app router (its type and zod parsers). */
export function procedureAt(path: ProcedurePath): AnyProcedure {
  const proc = walk(appRouter, path);
  if (typeof proc !== 'function' || !('_def' in proc)) throw new Error(`REST route names unknown procedure '${path}'`);
  return proc as AnyProcedure;
}

export function inputSchema(path: ProcedurePath): z.ZodType | undefined {
  return procedureAt(path)._def.inputs[0] as z.ZodType | undefined;
}

export function outputSchema(path: ProcedurePath): z.ZodType | undefined {
  const def = procedureAt(path)._def as { output?: unknown };
  return def.output as z.ZodType | undefined;
}

const procedures = new Map<ProcedurePath, AnyProcedure>();

/**
 * Call a procedure by its path as the web app would over /trpc: what tRPC's `createCaller(ctx)`
 * does for one call (the procedure with its middlewares, input and output parsers), with the
 * procedure looked up once rather than through a new caller proxy per request.
 */
export function callProcedure(ctx: Context, path: ProcedurePath, input: unknown): Promise<unknown> {
  let proc = procedures.get(path);
  if (!proc) procedures.set(path, (proc = procedureAt(path)));
  return proc({
    path,
    getRawInput: () => Promise.resolve(input),
    ctx,
    type: proc._def.type,
    signal: undefined,
    batchIndex: 0,
  }) as Promise<unknown>;
}
