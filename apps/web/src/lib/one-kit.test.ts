import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every mutation goes through `useSave` (lib/use-save.ts), every failure toast through it or its
 * `showFailure`, and the server's field issues are read there only: a screen that calls
 * `useMutation`, `notifyError` or reads `data.issues` itself words its toasts and field messages
 * a second way. See docs/web.md.
 */
const RULES: { pattern: RegExp; use: string }[] = [
  { pattern: /\buseMutation\b/, use: 'useSave(trpc.x.y, { success, errorTitle, ... })' },
  { pattern: /\bnotifyError\s*\(/, use: 'useSave, save.fail(reason) or showFailure({ errorTitle }, reason)' },
  { pattern: /\bdata\s*[?!]?\.\s*issues\b/, use: 'fieldIssues(error) or fieldIssue(error, path)' },
];

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The kit itself, and the notice it shows, may name what they wrap. */
const allowed = (file: string) => file.startsWith('lib/') || file === 'ui/notify.ts' || file === 'ui/notify.test.ts';

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** 'features/x.tsx:12 calls useMutation: use …' for each line breaking a rule. */
function offences(file: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) =>
      RULES.filter((r) => r.pattern.test(line)).map((r) => `${file}:${i + 1} ${line.trim()} → use ${r.use}`),
    );
}

describe('one mutation kit', () => {
  it('no screen calls useMutation or notifyError, or reads data.issues, outside lib/', () => {
    const files = sourceFiles(src).map((f) => path.relative(src, f).split(path.sep).join('/'));
    expect(files).toContain('features/service-planner/plan-page.tsx');
    const found = files
      .filter((f) => !allowed(f))
      .flatMap((f) => offences(f, fs.readFileSync(path.join(src, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('the rules catch each way of going around the kit', () => {
    const screen = [
      'const del = trpc.servicePlanner.songs.delete.useMutation();',
      "notifyError('Failed to delete song', errorMessage(err));",
      'const issues = (error as SaveError).data?.issues ?? [];',
      'if (e.data.issues.length) return e.data!.issues;',
      "const save = useSave(trpc.songs.delete, { errorTitle: 'Failed to delete song' });",
    ].join('\n');
    expect(offences('features/x.tsx', screen).map((o) => o.split(' ')[0])).toEqual([
      'features/x.tsx:1',
      'features/x.tsx:2',
      'features/x.tsx:3',
      'features/x.tsx:4',
    ]);
  });
});
