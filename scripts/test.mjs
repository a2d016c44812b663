// `npm test` (the README's test command): installs what the tests need, then runs them all: the
// unit, integration and HTTP tests of every package beside the browser tests. The parts run at
// once: they spend most of their time waiting (on PostgreSQL, a browser, timers), so together
// they take little longer than the longest alone. Each part's lines keep their own prefix
// (turbo's `@lampstand/<package>:test:`, and `e2e:` for the browser tests), and its seconds are
// printed when it ends. `--no-install` (as `pnpm test:all`) skips the install check. Without
// TEST_DATABASE_URL, the run starts one embedded PostgreSQL that every part's tests share.
//
// The install is skipped when node_modules already holds exactly this lockfile's packages (pnpm
// keeps a copy of the lockfile it installed in node_modules/.pnpm/lock.yaml): CI has just
// installed, and a second `pnpm install` would only check that again.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The pnpm the project pins, fetched by npx: nothing but Node and npm is needed.
const PNPM = ['--yes', 'pnpm@10.34.9'];
const read = (file) => {
  try {
    return fs.readFileSync(path.join(root, file), 'utf8');
  } catch {
    return null;
  }
};

if (!process.argv.includes('--no-install')) {
  const installed = read('node_modules/.pnpm/lock.yaml');
  if (installed === null || installed !== read('pnpm-lock.yaml')) {
    const r = spawnSync('npx', [...PNPM, 'install', '--frozen-lockfile'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  } else {
    console.log('node_modules matches pnpm-lock.yaml: no install needed');
  }
}

/** Runs `pnpm run <script>`, each output line behind `prefix`; resolves to whether it passed. */
function part(script, prefix) {
  const started = Date.now();
  const child = spawn('npx', [...PNPM, 'run', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream }).on('line', (line) => console.log(prefix + line));
  }
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const ok = code === 0;
      console.log(`-- ${script}: ${ok ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)}s`);
      resolve(ok);
    });
  });
}

/**
 * Without TEST_DATABASE_URL, one embedded PostgreSQL serves the whole run (each package's tests
 * would otherwise start their own, several at once). Resolves to its URL and a stop function.
 */
function startTestServer() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/test-server.ts'], {
    cwd: path.join(root, 'packages', 'db'),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (line.startsWith('url=')) {
        const stopped = new Promise((done) => child.on('close', done));
        resolve({
          url: line.slice(4),
          stop: () => {
            child.stdin.end();
            return stopped;
          },
        });
      }
    });
    child.on('close', (code) => reject(new Error(`the test PostgreSQL stopped before it answered (exit ${code})`)));
  });
}

let server = null;
if (!process.env.TEST_DATABASE_URL) {
  server = await startTestServer();
  process.env.TEST_DATABASE_URL = server.url;
  console.log('Tests use one embedded PostgreSQL for the whole run (no TEST_DATABASE_URL)');
}
// The server's tests take the longest of the unit parts (about as long as the browser tests), so
// they start at once beside the browser tests; the other packages' tests (a few minutes together)
// run one package at a time beside them. As `pnpm test:unit` (turbo, two packages at a time), the
// server's waited for a slot until two others ended: two minutes on the longest path.
const results = await Promise.all([
  part('test:server', '@lampstand/server:test: '),
  part('test:packages', ''),
  part('test:e2e', 'e2e: '),
]);
await server?.stop();
process.exit(results.every(Boolean) ? 0 : 1);
