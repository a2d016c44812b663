import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// No source file may import a file that (through others) imports it back: a circle makes the
// order modules load in depend on which one is imported first, and a value read during loading can
// be undefined. This walks the imports of every source file in the workspace (`import type` and
// `export type` aside: they are gone at run time) and fails with the circle it finds.

const ROOT = path.resolve(__dirname, '../../..');
const SOURCE_DIRS = ['apps/server/src', 'apps/web/src', 'packages/api/src', 'packages/db/src'];

/** The workspace packages' `exports` maps: `@lampstand/api/schemas/*` → its file. */
function packageExports(): Map<string, { dir: string; exports: Record<string, string> }> {
  const map = new Map<string, { dir: string; exports: Record<string, string> }>();
  for (const dir of ['apps/server', 'apps/web', 'packages/api', 'packages/db']) {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')) as {
      name: string;
      exports?: Record<string, string>;
    };
    map.set(pkg.name, { dir, exports: pkg.exports ?? {} });
  }
  return map;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(rel);
    return /\.tsx?$/.test(entry.name) && !/\.(test|e2e)\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')
      ? [rel]
      : [];
  });
}

/** A specifier as a file of the workspace, or undefined for a library. */
function resolve(from: string, spec: string, pkgs: ReturnType<typeof packageExports>): string | undefined {
  let target: string | undefined;
  if (spec.startsWith('.')) {
    target = path.join(path.dirname(from), spec);
  } else {
    const name = spec.split('/').slice(0, 2).join('/');
    const pkg = pkgs.get(name);
    if (!pkg) return undefined;
    const sub = `.${spec.slice(name.length)}`;
    for (const [key, file] of Object.entries(pkg.exports)) {
      if (key === sub) target = path.join(pkg.dir, file);
      else if (key.endsWith('*') && sub.startsWith(key.slice(0, -1)))
        target = path.join(pkg.dir, file.replace('*', sub.slice(key.length - 1)));
    }
    if (!target) return undefined;
  }
  const base = target.replace(/\.(js|jsx|ts|tsx)$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`])
    if (fs.existsSync(path.join(ROOT, candidate))) return candidate;
  return undefined;
}

/** The run-time imports of a file: `import … from`, `export … from` and bare imports, types aside. */
function importsOf(source: string): string[] {
  const specs: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*(?:from\s+)?['"]([^'"]+)['"]/gm;
  for (const m of source.matchAll(statement)) {
    if (m[2]) continue; // `import type …`, `export type …`
    const clause = m[3]!;
    if (m[1] === 'export' && !clause.includes('*') && !clause.includes('{')) continue;
    // `import { type A, type B } from` carries no value either.
    const named = /^\{([^}]*)\}$/.exec(clause.trim());
    if (named && named[1]!.split(',').every((n) => !n.trim() || /^type\s/.test(n.trim()))) continue;
    specs.push(m[4]!);
  }
  return specs;
}

function findCycles(): string[][] {
  const pkgs = packageExports();
  const graph = new Map<string, string[]>();
  const files = SOURCE_DIRS.flatMap(sourceFiles);
  for (const file of files) {
    const source = fs.readFileSync(path.join(ROOT, file), 'utf8');
    graph.set(
      file,
      importsOf(source).flatMap((spec) => resolve(file, spec, pkgs) ?? []),
    );
  }
  // Depth-first search; a file met again while still on the path closes a circle.
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

describe('imports', () => {
  it('form no circle: no file imports a file that imports it back', () => {
    const cycles = findCycles().map((c) => c.join('\n  → '));
    expect(cycles, `Import circles:\n${cycles.join('\n\n')}`).toEqual([]);
  });
});
