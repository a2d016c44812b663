import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appRouter } from './root.js';
import { publicProcedure, router } from './trpc.js';
import { useSyncParsers } from './sync-parsers.js';
import { checkExactOutputs, exactOutput } from './exact-output.js';
import type { Context } from './context.js';

type Def = { middlewares: Array<{ _type?: string; _sync?: true }>; inputs: unknown[]; output?: unknown };
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: Def }>);

/**
 * Where a schema lets keys through that it does not list: a loose object (catchall), a record, or
 * any/unknown. Everywhere else zod's parse keeps only the listed keys.
 */
function openings(schema: z.ZodType, at = '', seen = new Set<unknown>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const inner = (s: unknown, p = at) => openings(s as z.ZodType, p, seen);
  switch (def.type) {
    case 'object': {
      const catchall = def.catchall as z.ZodType | undefined;
      const open = catchall && catchall._zod.def.type !== 'never' ? [`${at || '.'} (loose object)`] : [];
      const shape = def.shape as Record<string, z.ZodType>;
      return [...open, ...Object.entries(shape).flatMap(([k, v]) => inner(v, `${at}.${k}`))];
    }
    case 'array':
      return inner(def.element, `${at}[]`);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
    case 'promise':
      return inner(def.innerType);
    case 'lazy':
      return inner((def.getter as () => unknown)());
    case 'union':
      return (def.options as z.ZodType[]).flatMap((o) => inner(o));
    case 'intersection':
      return [...inner(def.left), ...inner(def.right)];
    case 'pipe':
      return [...inner(def.in), ...inner(def.out)];
    case 'tuple':
      return (def.items as z.ZodType[]).flatMap((o, i) => inner(o, `${at}[${i}]`));
    case 'record':
    case 'map':
      return [`${at || '.'} (${def.type})`];
    case 'any':
    case 'unknown':
      return [`${at || '.'} (${def.type})`];
    default:
      return [];
  }
}

describe('every procedure validates with the compiled (synchronous) zod parse', () => {
  it.each(procedures)('%s', (_path, proc) => {
    const def = proc._def;
    // An input validator right before the output validator is one middleware ('input+output').
    const inputs = def.middlewares.filter((m) => m._type === 'input' || m._type === 'input+output');
    const outputs = def.middlewares.filter((m) => m._type === 'output' || m._type === 'input+output');
    expect(inputs.length).toBe(def.inputs.length);
    expect(outputs.length).toBe(def.output ? 1 : 0);
    for (const m of [...inputs, ...outputs]) expect(m._sync).toBe(true);
  });
});

describe('no unlisted column leaves: each output schema keeps only the keys it lists', () => {
  // A procedure's output is parsed through its schema (above), which drops every key it does not
  // list (a password hash, a token, another church's id) — except where the schema is open: these
  // are the only such places, each deliberate (free-form JSON the church itself wrote, maps of counts).
  const open = Object.fromEntries(
    procedures
      .map(([path, proc]) => [
        path,
        proc._def.output ? openings(proc._def.output as z.ZodType) : ['(no output schema)'],
      ])
      .filter(([, o]) => o!.length > 0),
  );
  it('lists the open places', () => {
    expect(open).toMatchInlineSnapshot(`
      {
        "adminTemplates.createTemplate": [
          ".content (record)",
        ],
        "adminTemplates.templates": [
          "[].content (record)",
        ],
        "adminTemplates.updateTemplate": [
          ".content (record)",
        ],
        "contactImports.get": [
          ".suggestedMapping (record)",
          ".mapping (record)",
        ],
        "contactImports.start": [
          ".suggestedMapping (record)",
          ".mapping (record)",
        ],
        "contactImports.upload": [
          ".suggestedMapping (record)",
          ".mapping (record)",
        ],
        "events.forContact": [
          ".events[].data (record)",
        ],
        "events.list": [
          ".events[].data (record)",
        ],
        "imports.commit": [
          ".policy (record)",
        ],
        "imports.get": [
          ".policy (record)",
        ],
        "imports.list": [
          "[].policy (record)",
        ],
        "imports.presets": [
          "[].mapping (record)",
        ],
        "imports.savePreset": [
          ".mapping (record)",
        ],
        "imports.undo": [
          ".policy (record)",
        ],
        "imports.upload": [
          ".policy (record)",
        ],
        "outbox.list": [
          "[].headers (record)",
        ],
        "profileUpdates.list": [
          "[].changes (record)",
        ],
        "qrCodes.create": [
          ".design (record)",
        ],
        "qrCodes.get": [
          ".design (record)",
        ],
        "qrCodes.list": [
          "[].design (record)",
        ],
        "qrCodes.update": [
          ".design (record)",
        ],
        "templates.list": [
          "[].content (record)",
        ],
        "templates.packages": [
          "[].templates[].content (record)",
        ],
      }
    `);
  });
});

describe('the synchronous parsers behave as tRPC’s own', () => {
  const contact = z.object({ id: z.number(), name: z.string(), at: z.date().transform((d) => d.toISOString()) });
  const testRouter = router({
    get: publicProcedure
      .input(z.object({ id: z.coerce.number().int() }))
      .output(contact)
      .query(({ input }) => ({
        id: input.id,
        name: 'Ada',
        at: new Date(0),
        passwordHash: 'secret',
      })),
    broken: publicProcedure.output(contact).query(() => ({ id: 'x' }) as never),
    slow: publicProcedure
      .output(z.object({ n: z.number().refine(async (n) => n > 0) }))
      .query(() => ({ n: 1, extra: true })),
  });
  useSyncParsers(testRouter);
  const caller = testRouter.createCaller({} as Context);

  it('an input and its output validator are one step of the chain', () => {
    const types = (testRouter.get as unknown as { _def: Def })._def.middlewares.map((m) => m._type);
    expect(types.filter((t) => t === 'input+output')).toHaveLength(1);
    expect(types).not.toContain('input');
    expect(types).not.toContain('output');
  });

  it('strips unlisted keys and runs transforms', async () => {
    expect(await caller.get({ id: '7' })).toEqual({
      id: 7,
      name: 'Ada',
      at: '1970-01-01T00:00:00.000Z',
    });
  });

  it('bad input is BAD_REQUEST with the zod error as cause', async () => {
    await expect(caller.get({ id: 'seven' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      cause: expect.any(z.ZodError),
    });
  });

  it('an answer that does not match its schema is an internal error', async () => {
    await expect(caller.broken()).rejects.toMatchObject({
      code: 'INTERNAL_SERVER_ERROR',
      message: 'Output validation failed',
    });
  });

  it('a schema with an async refinement falls back to parseAsync', async () => {
    expect(await caller.slow()).toEqual({ n: 1 });
  });
});

describe('an exact answer (exactOutput) goes out as it is', () => {
  const at = z.codec(z.date(), z.string(), { decode: (d) => d.toISOString(), encode: (s) => new Date(s) });
  const item = z.object({ id: z.number(), at });
  const page = z.object({ items: z.array(item), total: z.number() });
  const answer = { items: [{ id: 1, at: '1970-01-01T00:00:00.000Z' }], total: 1 };
  // Built outside the literal, as a spread row would be: TypeScript lets the unlisted key through.
  const leaking = { items: [{ id: 1, at: '1970-01-01T00:00:00.000Z', passwordHash: 'secret' }], total: 1 };
  const testRouter = router({
    exact: publicProcedure.output(page).query(() => exactOutput(page, answer)),
    leaking: publicProcedure.output(page).query(() => exactOutput(page, leaking)),
    unordered: publicProcedure.output(page).query(() => exactOutput(page, { total: 1, items: answer.items })),
  });
  useSyncParsers(testRouter);
  const caller = testRouter.createCaller({} as Context);

  it('is the same object, not parsed again', async () => {
    expect(await caller.exact()).toBe(answer);
  });

  it('is checked against its schema outside production: an unlisted key or another order is an internal error', async () => {
    for (const call of [caller.leaking, caller.unordered])
      await expect(call()).rejects.toMatchObject({
        code: 'INTERNAL_SERVER_ERROR',
        message: 'Output validation failed',
      });
    checkExactOutputs(false);
    try {
      expect(await caller.leaking()).toBe(leaking);
    } finally {
      checkExactOutputs(true);
    }
  });
});
