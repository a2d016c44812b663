// `npm test` (the README's test command): installs what the tests need, then runs them all: the
// unit, integration and HTTP tests of every package, then the browser tests.
// The install is skipped when node_modules already holds exactly this lockfile's packages (pnpm
// keeps a copy of the lockfile it installed in node_modules/.pnpm/lock.yaml): CI has just
// installed, and a second `pnpm install` would only check that again.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pnpm = (args) => {
  // The pnpm the project pins, fetched by npx: nothing but Node and npm is needed.
  const r = spawnSync('npx', ['--yes', 'pnpm@10.34.9', ...args], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
const read = (file) => {
  try {
    return fs.readFileSync(path.join(root, file), 'utf8');
  } catch {
    return null;
  }
};

const installed = read('node_modules/.pnpm/lock.yaml');
if (installed === null || installed !== read('pnpm-lock.yaml')) pnpm(['install', '--frozen-lockfile']);
else console.log('node_modules matches pnpm-lock.yaml: no install needed');
// As `pnpm test:all`, with each part's seconds (CI prints them).
for (const part of ['test:unit', 'test:e2e']) {
  const started = Date.now();
  pnpm(['run', part]);
  console.log(`-- ${part}: ${Math.round((Date.now() - started) / 1000)}s`);
}
