import { spawn, type ChildProcess } from 'node:child_process';
import { serverDir } from './api-load.js';

export interface BenchProcess<T> {
  child: ChildProcess;
  pid: number;
  /** The first JSON line the process printed (its address, or that it is ready). */
  hello: T;
  stop: () => Promise<void>;
}

/**
 * A bench/lib script in a node process of its own (with an IPC channel), started on `env` and
 * waited for until it prints its first JSON line; stopped with SIGTERM.
 */
export async function spawnBenchProcess<T>(
  script: string,
  env: Record<string, string>,
  nodeOptions: string[] = [],
): Promise<BenchProcess<T>> {
  const child = spawn(process.execPath, [...nodeOptions, '--import', 'tsx', script], {
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
 * benchmark's database), for another church's requests while the benchmark's own process does
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
