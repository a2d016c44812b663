// pnpm bench:startup — time from process start to a healthy /healthz, and RSS once healthy:
// `pnpm serve` on an existing embedded database (the issue-19 target: < 2 s, < 200 MB; exits 1 when
// missed), the same without pnpm in front, and the compiled server against the tsx sources on an
// external database. Needs DATABASE_URL (or TEST_DATABASE_URL's server) and a prior `pnpm build`.
// The embedded cluster is created (and migrated) by one unmeasured start in a temporary DATA_DIR.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const base = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = 'lampstand_bench_startup';

async function ensureDb(): Promise<string> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  const { rowCount } = await c.query('select 1 from pg_database where datname = $1', [dbName]);
  if (!rowCount) await c.query(`create database ${dbName}`);
  await c.end();
  const u = new URL(base);
  u.pathname = `/${dbName}`;
  return u.toString();
}

function rssKb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

interface Variant {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string | undefined>;
}

async function once(v: Variant, port: number): Promise<{ ms: number; rssMb: number }> {
  const started = performance.now();
  // Its own process group, so pnpm, node and an embedded PostgreSQL stop together.
  const child = spawn(v.command, v.args, {
    cwd: v.cwd,
    env: { ...process.env, ...v.env, PORT: String(port), LOG_LEVEL: 'warn', RUN_WORKERS: 'true' },
    stdio: 'ignore',
    detached: true,
  });
  let done = false;
  const exited = new Promise((r) => child.once('exit', r)).then(() => (done = true));
  try {
    for (;;) {
      if (done) throw new Error(`${v.name} exited before it was healthy`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (res.ok) break;
      } catch {
        /* not listening yet */
      }
      if (performance.now() - started > 60_000) throw new Error(`${v.name} did not become healthy`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const ms = performance.now() - started;
    await new Promise((r) => setTimeout(r, 1000)); // settle (workers started, first GC)
    return { ms, rssMb: serverRssMb(child.pid!) };
  } finally {
    if (!done) process.kill(-child.pid!, 'SIGTERM');
    await exited;
    await new Promise((r) => setTimeout(r, 500)); // the embedded PostgreSQL finishes its shutdown
  }
}

/** RSS of the node process serving (the child itself, or the node under `pnpm serve`). */
function serverRssMb(pid: number): number {
  const [exe = '', ...args] = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  if (path.basename(exe) === 'node' && args.some((a) => /main\.(js|ts)$/.test(a))) return rssKb(pid) / 1024;
  for (const child of fs
    .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)) {
    const found = serverRssMb(Number(child));
    if (found) return found;
  }
  return 0;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const databaseUrl = await ensureDb();
const repoRoot = path.resolve(serverDir, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lampstand-startup-'));
fs.chmodSync(dataDir, 0o711); // the embedded PostgreSQL runs as 'postgres' when we are root
const embeddedEnv = { DATABASE_URL: undefined, DATA_DIR: dataDir, EMBEDDED_PG_PORT: '54391' };
const node = process.execPath;
const variants: Variant[] = [
  { name: 'pnpm serve, embedded PostgreSQL', command: 'pnpm', args: ['serve'], cwd: repoRoot, env: embeddedEnv },
  {
    name: 'node dist/main.js, embedded PostgreSQL',
    command: node,
    args: ['dist/main.js'],
    cwd: serverDir,
    env: embeddedEnv,
  },
  {
    name: 'node dist/main.js, external PostgreSQL',
    command: node,
    args: ['dist/main.js'],
    cwd: serverDir,
    env: { DATABASE_URL: databaseUrl },
  },
  {
    name: 'node --enable-source-maps dist/main.js, external',
    command: node,
    args: ['--enable-source-maps', 'dist/main.js'],
    cwd: serverDir,
    env: { DATABASE_URL: databaseUrl },
  },
  {
    name: 'node --import tsx src/main.ts, external',
    command: node,
    args: ['--import', 'tsx', 'src/main.ts'],
    cwd: serverDir,
    env: { DATABASE_URL: databaseUrl },
  },
];
await once(variants[1]!, 3990); // creates and migrates the embedded cluster (not measured)
const runs = Number(process.env.RUNS ?? 5);
const results: Record<string, { ms: number[]; rss: number[] }> = {};
for (let i = 0; i < runs; i++) {
  for (const v of variants) {
    const r = await once(v, 3990);
    const slot = (results[v.name] ??= { ms: [], rss: [] });
    slot.ms.push(r.ms);
    slot.rss.push(r.rssMb);
  }
}
console.log(`start to healthy and RSS once healthy, median of ${runs} alternating runs`);
for (const [name, r] of Object.entries(results)) {
  console.log(`${name.padEnd(52)} start ${median(r.ms).toFixed(0)} ms   RSS ${median(r.rss).toFixed(0)} MB`);
}
fs.rmSync(dataDir, { recursive: true, force: true });
const serve = results[variants[0]!.name]!;
if (median(serve.ms) >= 2000 || median(serve.rss) >= 200) {
  console.log('Target missed: `pnpm serve` on an existing embedded database healthy in < 2 s with RSS < 200 MB.');
  process.exitCode = 1;
}
