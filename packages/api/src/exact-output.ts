import { z } from 'zod';

/**
 * Answers already in their output form, built field by field by typed code: the output
 * validator passes them on as they are instead of parsing them again (zod's parse of a page of 25
 * contacts builds every object anew and writes each date; ~5% of a list request's CPU).
 */
const exact = new WeakSet<object>();

/**
 * Marks `value`, the schema's output (ISO strings where the schema turns dates into strings), as
 * the procedure's answer as it is. Its type is the schema's output type, so a field missing or of
 * another type does not compile; build it as object literals (TypeScript refuses their unlisted
 * keys) from typed rows, never from a spread row, which could carry a column the schema leaves out.
 * Typed as the schema's input because that is what tRPC's `.output()` expects from the resolver;
 * the output middleware (sync-parsers.ts) hands it on unparsed.
 */
export function exactOutput<S extends z.ZodType>(_schema: S, value: z.output<S> & object): z.input<S> {
  exact.add(value);
  return value as unknown as z.input<S>;
}

/** Whether the output middleware may pass `value` on unparsed. */
export function isExactOutput(value: unknown): boolean {
  return typeof value === 'object' && value !== null && exact.has(value);
}

let checking = true;

/**
 * Whether exact answers are checked against their schema: on unless the server turns it off in
 * production, so every test that calls such a procedure checks it.
 */
export function checkExactOutputs(on: boolean): void {
  checking = on;
}

/**
 * The check: the answer, encoded back through its schema and parsed again, is the same JSON (the
 * same keys in the same order, the same values), as zod's own parse would have answered.
 */
export function verifyExactOutput(schema: z.ZodType, value: unknown): void {
  if (!checking) return;
  const again = JSON.stringify(schema.parse(z.encode(schema, value)));
  if (again !== JSON.stringify(value)) throw new Error(`An exact output differs from its schema's parse: ${again}`);
}
