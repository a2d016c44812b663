import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// No source file over 400 lines: a file that long does several things, and its name can no longer
// say what is in it (split it by what each part does). Tests, migrations, benchmarks and generated
// files aside. This counts the lines of every TypeScript file of every workspace package.

const ROOT = path.resolve(__dirname, '../../..');
const MAX_LINES = 400;
const SKIP_DIRS = new Set([
  'node_modules',
  'dist',
  'build',
  'coverage',
  'public',
  'test',
  'e2e',
  'bench',
  'migrations',
]);

/**
 * Files still over the limit while their split is under way elsewhere. The list may only shrink:
 * an entry that is back under the limit (or gone) fails the test until it is removed here.
 */
const NOT_SPLIT_YET = new Set<string>([]);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory())
      return SKIP_DIRS.has(entry.name) || entry.name === 'generated' || entry.name.startsWith('.')
        ? []
        : sourceFiles(rel);
    return /\.(ts|tsx|mts|cts)$/.test(entry.name) && !/\.(test|e2e)\.tsx?$|\.d\.[mc]?ts$/.test(entry.name) ? [rel] : [];
  });
}

const lineCount = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').length - 1;

describe('source file sizes', () => {
  const files = ['apps', 'packages'].flatMap((parent) =>
    fs
      .readdirSync(path.join(ROOT, parent))
      .filter((name) => fs.existsSync(path.join(ROOT, parent, name, 'package.json')))
      .flatMap((name) => sourceFiles(path.join(parent, name))),
  );

  it('counts the sources of every package', () => {
    expect(files).toContain('apps/web/src/app.tsx');
    expect(files).toContain('packages/db/src/tenancy.ts');
    expect(files.length).toBeGreaterThan(500);
  });

  it(`keeps every source file at ${MAX_LINES} lines or fewer`, () => {
    const long = files
      .filter((f) => !NOT_SPLIT_YET.has(f))
      .map((f) => ({ file: f, lines: lineCount(f) }))
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => `${f.file}: ${f.lines} lines`);
    expect(long, 'Split these files by what each part does').toEqual([]);
  });

  it('lists no file as not split yet once it is', () => {
    const done = [...NOT_SPLIT_YET].filter((f) => !files.includes(f) || lineCount(f) <= MAX_LINES);
    expect(done, 'Remove these from NOT_SPLIT_YET').toEqual([]);
  });
});
