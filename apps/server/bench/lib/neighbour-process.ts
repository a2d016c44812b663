import type { ChildProcess } from 'node:child_process';
import { spawnBenchProcess } from './api-process.js';
import type { Neighbour, NeighbourResult } from './neighbour.js';

/**
 * Another church (lib/neighbour.ts) whose client runs in a process of its own
 * (neighbour-process-main.ts): its times are what the API answered, whatever the benchmark's own
 * process is doing meanwhile. The same `Neighbour` as `startNeighbour`, plus `stop()` for the process.
 */
export async function startNeighbourProcess(
  apiUrl: string,
  databaseUrl: string,
  opts: { gifts?: number; paceMs?: number } = {},
): Promise<Neighbour & { pid: number; close: () => Promise<void> }> {
  const p = await spawnBenchProcess<{ ready: true }>('bench/lib/neighbour-process-main.ts', {
    BENCH_API_URL: apiUrl,
    BENCH_DATABASE_URL: databaseUrl,
    BENCH_NEIGHBOUR_GIFTS: String(opts.gifts ?? 0),
    BENCH_NEIGHBOUR_PACE_MS: String(opts.paceMs ?? 100),
  });
  const ask = <T>(child: ChildProcess, message: object, done: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (m: { done: string } & T) => {
        if (m.done !== done) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(m);
      };
      const onExit = (code: number) => reject(new Error(`another church's client exited with ${code}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send(message);
    });
  return {
    pid: p.pid,
    async baseline() {
      await ask(p.child, { cmd: 'baseline' }, 'baseline');
    },
    during() {
      const started = ask(p.child, { cmd: 'during' }, 'during');
      return {
        async stop(label: string) {
          await started;
          return (await ask<{ result: NeighbourResult }>(p.child, { cmd: 'stop', label }, 'stop')).result;
        },
      };
    },
    close: p.stop,
  };
}
