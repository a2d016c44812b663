import type { z } from 'zod';
import { appRouter } from '@lampstand/api/server';

interface ProcedureDef {
  type: 'query' | 'mutation' | 'subscription';
  inputs: unknown[];
  output?: unknown;
}

/** A procedure's runtime definition (type and zod parsers), by dotted path. */
export function procedureDef(path: string): ProcedureDef {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: ProcedureDef } | undefined>;
  const proc = procedures[path];
  if (!proc) throw new Error(`REST route names unknown procedure '${path}'`);
  return proc._def;
}

export function inputSchema(path: string): z.ZodType | undefined {
  const [first] = procedureDef(path).inputs;
  return first as z.ZodType | undefined;
}

export function outputSchema(path: string): z.ZodType | undefined {
  return procedureDef(path).output as z.ZodType | undefined;
}
