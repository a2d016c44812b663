// pnpm bench:startup — time from process start to a healthy /healthz, and RSS once healthy, for the
// compiled server (dist/main.js) and for the TypeScript sources run through tsx, on one database.
// Needs DATABASE_URL (or TEST_DATABASE_URL's server) and a prior `pnpm build`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
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

async function once(args: string[], databaseUrl: string, port: number): Promise<{ ms: number; rssMb: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: serverDir,
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), LOG_LEVEL: 'warn', RUN_WORKERS: 'true' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (res.ok) break;
      } catch {
        /* not listening yet */
      }
      if (performance.now() - started > 30_000) throw new Error(`${args.join(' ')} did not become healthy`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const ms = performance.now() - started;
    await new Promise((r) => setTimeout(r, 1000)); // settle (workers started, first GC)
    return { ms, rssMb: rssKb(child.pid!) / 1024 };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const databaseUrl = await ensureDb();
const variants: [string, string[]][] = [
  ['compiled (node dist/main.js)', ['--enable-source-maps', 'dist/main.js']],
  ['tsx (node --import tsx src/main.ts)', ['--import', 'tsx', 'src/main.ts']],
];
const runs = Number(process.env.RUNS ?? 5);
const results: Record<string, { ms: number[]; rss: number[] }> = {};
for (let i = 0; i < runs; i++) {
  for (const [name, args] of variants) {
    const r = await once(args, databaseUrl, 3990);
    (results[name] ??= { ms: [], rss: [] }).ms.push(r.ms);
    results[name].rss.push(r.rssMb);
  }
}
console.log(`start to healthy and RSS once healthy, median of ${runs} alternating runs`);
for (const [name, r] of Object.entries(results)) {
  console.log(`${name.padEnd(40)} start ${median(r.ms).toFixed(0)} ms   RSS ${median(r.rss).toFixed(0)} MB`);
}
