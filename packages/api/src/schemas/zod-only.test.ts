import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// `schemas/` holds the zod schemas the server and the browser's forms share, with their types and
// constants: no logic. A function a schema file exports either builds a schema (named `…Schema`,
// such as `textSchema(label, max)`) or is a refinement a schema hands to `superRefine` (named
// `check…` or `refine…`, taking the value and zod's context). Formatting, parsing, arithmetic and
// sentences are logic: they live in `shared/` (pure, the browser imports them as
// `@lampstand/api/shared/<feature>`) or, when only the server needs them, beside the service.

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(file);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [file] : [];
  });
}

const rel = (file: string) => path.relative(src, file);

/** The modules a file imports or re-exports, as written. */
function specifiers(file: string): { spec: string; typeOnly: boolean }[] {
  const text = fs.readFileSync(file, 'utf8');
  const statement = /^\s*(?:import|export)\s+(type\s+)?(?:[\w$*{},\s]*?\s*from\s*)?['"]([^'"]+)['"]/gm;
  return [...text.matchAll(statement)].map((m) => ({
    spec: m[2]!,
    typeOnly: !!m[1],
  }));
}

/** What may stay a function in a schema file: a schema's builder, or a refinement of (value, ctx). */
function allowedFunction(name: string, fn: (...args: never[]) => unknown): boolean {
  if (/Schema$/.test(name)) return true;
  return /^(check|refine)[A-Z]/.test(name) && fn.length === 2;
}

describe('schemas/ holds schemas, not logic', () => {
  const files = sourceFiles(path.join(src, 'schemas'));

  it('finds the schema files', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it('exports no function but schema builders and refinements', async () => {
    const logic: string[] = [];
    for (const file of files) {
      const mod = (await import(file)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod)) {
        if (typeof value === 'function' && !allowedFunction(name, value as () => unknown))
          logic.push(`${rel(file)}: ${name}`);
      }
    }
    expect(logic, 'Move these functions to shared/ (or beside the service that uses them)').toEqual([]);
  });

  it('imports only zod, other schemas and shared/ (the browser imports these files)', () => {
    const bad = files.flatMap((file) =>
      specifiers(file)
        .filter(({ spec }) => {
          if (spec === 'zod') return false;
          if (!spec.startsWith('.')) return true;
          const target = path.resolve(path.dirname(file), spec);
          return !['schemas', 'shared'].some((dir) => target.startsWith(path.join(src, dir) + path.sep));
        })
        .map(({ spec }) => `${rel(file)} imports ${spec}`),
    );
    expect(bad).toEqual([]);
  });
});

describe('shared/ is pure and safe for the browser', () => {
  const files = sourceFiles(path.join(src, 'shared'));

  it('imports only other shared modules, schemas, and zod for types', () => {
    const bad = files.flatMap((file) =>
      specifiers(file)
        .filter(({ spec, typeOnly }) => {
          if (spec === 'zod') return !typeOnly;
          if (!spec.startsWith('.')) return true;
          const target = path.resolve(path.dirname(file), spec);
          return !['schemas', 'shared'].some((dir) => target.startsWith(path.join(src, dir) + path.sep));
        })
        .map(({ spec }) => `${rel(file)} imports ${spec}`),
    );
    expect(files.length).toBeGreaterThan(10);
    expect(bad).toEqual([]);
  });
});
