import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// No source file may import a file that (through others) imports it back: a circle makes the
// order modules load in depend on which one is imported first, and a value read during loading can
// be undefined. This walks the imports of every TypeScript file of every workspace package (apps/*
// and packages/*: sources, tests, benchmarks, scripts, configs; `import type` and `export type`
// aside, as they are gone at run time) and fails with the circle it finds. An import it cannot
// resolve fails too, so a file is never left out of the graph unseen.

const ROOT = path.resolve(__dirname, '../../..');
const SKIP_DIRS = new Set(['node_modules', 'dist', 'build', 'coverage', 'public']);

type Packages = Map<string, { dir: string; exports: Record<string, string> }>;

/** The workspace's packages (every folder of apps/ and packages/ with a package.json) and their `exports`. */
function workspacePackages(): Packages {
  const map: Packages = new Map();
  for (const parent of ['apps', 'packages']) {
    for (const name of fs.readdirSync(path.join(ROOT, parent))) {
      const dir = path.join(parent, name);
      const file = path.join(ROOT, dir, 'package.json');
      if (!fs.existsSync(file)) continue;
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name: string; exports?: Record<string, string> };
      map.set(pkg.name, { dir, exports: pkg.exports ?? {} });
    }
  }
  return map;
}

/** Every TypeScript file below `dir` (declaration files, hidden folders and build output aside). */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIP_DIRS.has(entry.name) || entry.name.startsWith('.') ? [] : sourceFiles(rel);
    return /\.(ts|tsx|mts|cts)$/.test(entry.name) && !/\.d\.[mc]?ts$/.test(entry.name) ? [rel] : [];
  });
}

/**
 * A specifier as a file of the workspace; null for a library (not a workspace package);
 * undefined when it names a workspace file that does not exist.
 */
function resolve(from: string, spec: string, pkgs: Packages): string | null | undefined {
  const bare = spec.replace(/\?.*$/, ''); // vite's '?url', '?raw'
  let target: string | undefined;
  if (bare.startsWith('.')) {
    target = path.join(path.dirname(from), bare);
  } else {
    const name = bare.startsWith('@') ? bare.split('/').slice(0, 2).join('/') : bare.split('/')[0]!;
    const pkg = pkgs.get(name);
    if (!pkg) return null;
    const sub = `.${bare.slice(name.length)}`;
    for (const [key, file] of Object.entries(pkg.exports)) {
      if (key === sub) target = path.join(pkg.dir, file);
      else if (key.endsWith('*') && sub.startsWith(key.slice(0, -1)))
        target = path.join(pkg.dir, file.replace('*', sub.slice(key.length - 1)));
    }
    if (!target) return undefined;
  }
  const base = target.replace(/\.(js|jsx|mjs|cjs|ts|tsx|mts|cts)$/, '');
  for (const candidate of ['ts', 'tsx', 'mts', 'cts'].flatMap((ext) => [`${base}.${ext}`, `${base}/index.${ext}`]))
    if (fs.existsSync(path.join(ROOT, candidate))) return candidate;
  // Not TypeScript (a stylesheet, an image, a JSON or JavaScript file): no edge, but it must exist.
  return fs.existsSync(path.join(ROOT, target)) ? null : undefined;
}

/** The run-time imports of a file: `import … from`, `export … from` and bare imports, types aside. */
function importsOf(source: string): string[] {
  const specs: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?(?:([\w$*{},\s]*?)\s*from\s*)?['"]([^'"]+)['"]/gm;
  for (const m of source.matchAll(statement)) {
    if (m[2]) continue; // `import type …`, `export type …`
    const clause = (m[3] ?? '').trim();
    if (m[1] === 'export' && !clause.includes('*') && !clause.includes('{')) continue;
    // `import { type A, type B } from` carries no value either.
    const named = /^\{([^}]*)\}$/.exec(clause);
    if (named && named[1]!.split(',').every((n) => !n.trim() || /^type\s/.test(n.trim()))) continue;
    specs.push(m[4]!);
  }
  return specs;
}

/** Each circle met by a depth-first walk of `graph` (file → the files it imports). */
function findCycles(graph: Map<string, string[]>): string[][] {
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

function workspaceGraph() {
  const pkgs = workspacePackages();
  const graph = new Map<string, string[]>();
  const unresolved: string[] = [];
  for (const { dir } of pkgs.values()) {
    for (const file of sourceFiles(dir)) {
      const edges: string[] = [];
      for (const spec of importsOf(fs.readFileSync(path.join(ROOT, file), 'utf8'))) {
        const target = resolve(file, spec, pkgs);
        if (target === undefined) unresolved.push(`${file}: ${spec}`);
        else if (target !== null) edges.push(target);
      }
      graph.set(file, edges);
    }
  }
  return { pkgs, graph, unresolved };
}

describe('imports', () => {
  const { pkgs, graph, unresolved } = workspaceGraph();

  it('walks every workspace package, its sources and the rest', () => {
    expect([...pkgs.keys()].sort()).toEqual(['@lampstand/api', '@lampstand/db', '@lampstand/server', '@lampstand/web']);
    for (const { dir } of pkgs.values()) {
      const own = [...graph.keys()].filter((f) => f.startsWith(`${dir}/src/`));
      expect(own.length, `${dir}/src`).toBeGreaterThan(10);
    }
    expect(graph.has('apps/server/bench/show-up.ts')).toBe(true);
    expect(graph.has('packages/db/scripts/db-types.ts')).toBe(true);
  });

  it('resolves every import of a workspace file', () => {
    expect(unresolved).toEqual([]);
  });

  it('form no circle: no file imports a file that imports it back', () => {
    const cycles = findCycles(graph).map((c) => c.join('\n  → '));
    expect(cycles, `Import circles:\n${cycles.join('\n\n')}`).toEqual([]);
  });

  it('reads the forms an import takes, and finds a circle', () => {
    const source = [
      "import a from './a.js';",
      "import { b, type B } from './b.js';",
      "import { type C } from './c.js';",
      "import type { D } from './d.js';",
      "import './e.js';",
      "export * from './f.js';",
      "export { g } from './g.js';",
      "export type { H } from './h.js';",
      'import {',
      '  i,',
      '  j,',
      "} from './ij.js';",
      "const k = 'not an import';",
      "export const l = './not-an-import.js';",
    ].join('\n');
    expect(importsOf(source)).toEqual(['./a.js', './b.js', './e.js', './f.js', './g.js', './ij.js']);
    const graph = new Map([
      ['x', ['y']],
      ['y', ['z']],
      ['z', ['x']],
      ['w', ['x']],
    ]);
    expect(findCycles(graph)).toEqual([['x', 'y', 'z', 'x']]);
  });
});
