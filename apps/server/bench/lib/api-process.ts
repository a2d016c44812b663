import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { serverDir } from './api-load.js';

export interface BenchProcess<T> {
  child: ChildProcess;
  pid: number;
  /** The first JSON line the process printed (its address, or that it is ready). */
  hello: T;
  stop: () => Promise<void>;
}

/** The bench processes that run the app, compiled (`compiled`), and the threads the app starts from beside them. */
const COMPILED_ENTRIES = {
  'api-process-main': 'bench/lib/api-process-main.ts',
  'worker-process-main': 'bench/lib/worker-process-main.ts',
  'imports-preview-thread': 'src/public/imports-preview-thread.ts',
  'statements-build-thread': 'src/jobs/statements-build-thread.ts',
};

let compiledDir: string | undefined;

/**
 * The app's bench processes compiled as `build.mjs` compiles the server into dist/ (one ES module
 * per entry, shared chunks, the workspace packages and pure-JS dependencies bundled in), once per
 * run, into a directory of this run's own beside dist/ (at its depth: paths the server finds from
 * its own file come out the same), removed when the run ends. From the TypeScript sources (tsx)
 * the API process held 256–286 MB at rest and its preview thread ~85 MB, against ~150 MB and
 * ~40 MB for the built server: a benchmark measures the app as `pnpm serve` runs it.
 */
function compiled(script: string): string {
  const name = Object.entries(COMPILED_ENTRIES).find(([, source]) => source === script)?.[0];
  if (!name) throw new Error(`${script} is not one of the compiled bench processes`);
  if (!compiledDir) {
    const outdir = path.join(serverDir, `.bench-dist-${process.pid}`);
    fs.rmSync(outdir, { recursive: true, force: true });
    process.once('exit', () => fs.rmSync(outdir, { recursive: true, force: true }));
    buildSync({
      entryPoints: Object.fromEntries(Object.entries(COMPILED_ENTRIES).map(([k, v]) => [k, path.join(serverDir, v)])),
      outdir,
      bundle: true,
      platform: 'node',
      target: 'node20.19',
      format: 'esm',
      splitting: true,
      minifyWhitespace: true,
      external: JSON.parse(fs.readFileSync(path.join(serverDir, 'build-external.json'), 'utf8')) as string[],
      logLevel: 'warning',
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
    });
    compiledDir = outdir;
  }
  return path.join(compiledDir, `${name}.js`);
}

/**
 * A bench/lib script in a node process of its own (with an IPC channel), started on `env` and
 * waited for until it prints its first JSON line; stopped with SIGTERM. From its TypeScript source
 * (tsx), or with `compiled` as the server is built (`compiled`: the processes that run the app).
 */
export async function spawnBenchProcess<T>(
  script: string,
  env: Record<string, string>,
  nodeOptions: string[] = [],
  opts: { compiled?: boolean } = {},
): Promise<BenchProcess<T>> {
  const args = opts.compiled ? [compiled(script)] : ['--import', 'tsx', script];
  const child = spawn(process.execPath, [...nodeOptions, ...args], {
    cwd: serverDir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const hello = await new Promise<T>((resolve, reject) => {
    let out = '';
    let found = false;
    child.stdout!.on('data', (d: Buffer) => {
      if (found) return void process.stdout.write(d);
      out += d.toString();
      const at = out.split('\n').findIndex((l) => l.startsWith('{'));
      if (at < 0) return;
      found = true;
      const lines = out.split('\n');
      resolve(JSON.parse(lines[at]!) as T);
      const rest = lines.slice(at + 1).join('\n');
      if (rest) process.stdout.write(rest);
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${out}`)));
  });
  return {
    child,
    pid: child.pid!,
    hello,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/**
 * The API process's event loop since the last ask (delays the 10 ms sampler saw, ms: what a request
 * arriving then waited before it was read) and its memory now (MB).
 */
export interface ApiLoop {
  p99Ms: number;
  maxMs: number;
  meanMs: number;
  rssMb: number;
  heapUsedMb: number;
  externalMb: number;
}

/**
 * The app in a process of its own (bench/lib/api-process-main.ts: `startSetupServer` on the
 * benchmark's database, compiled as the server is built), for another church's requests while the benchmark's own process does
 * the heavy work: that process's memory stays the work's alone. `nodeOptions`: node's flags for it
 * (`serveNodeOptions()`: those `pnpm serve` runs the app with).
 */
export async function startApiProcess(
  databaseUrl: string,
  nodeOptions: string[] = [],
): Promise<{ url: string; pid: number; loop: () => Promise<ApiLoop>; stop: () => Promise<void> }> {
  const p = await spawnBenchProcess<{ url: string }>(
    'bench/lib/api-process-main.ts',
    { BENCH_DATABASE_URL: databaseUrl },
    nodeOptions,
    { compiled: true },
  );
  const loop = () =>
    new Promise<ApiLoop>((resolve, reject) => {
      const onMessage = (m: { done?: string } & ApiLoop) => {
        if (m.done !== 'loop') return;
        p.child.off('message', onMessage);
        p.child.off('exit', onExit);
        resolve(m);
      };
      const onExit = (code: number) => reject(new Error(`the API process exited with ${code}`));
      p.child.on('message', onMessage);
      p.child.once('exit', onExit);
      p.child.send({ cmd: 'loop' });
    });
  return { url: p.hello.url, pid: p.pid, loop, stop: p.stop };
}
