/**
 * The API process of bench/lib/api-process.ts: the app (test configuration, no workers) on
 * BENCH_DATABASE_URL; prints its address as one JSON line and stops on SIGTERM. Answers the
 * parent's `{ cmd: 'loop' }` with its event loop's delays since the last ask (what every request
 * it serves waited for the loop, sampled every 10 ms) and its memory, then starts counting again.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createDb } from '@lampstand/db';
import { startSetupServer } from './setup-server.js';
import type { ApiLoop } from './api-process.js';
import { lowerHelperThreadsPriority } from '../../src/priority.js';

// As `pnpm serve` does at WORKER_NICE (main.ts): V8's helper threads below the event loop.
// BENCH_API_HELPERS_NICE=0 keeps them at its priority (the A/B in docs/benchmarks-history.md).
lowerHelperThreadsPriority(Number(process.env.BENCH_API_HELPERS_NICE ?? 10));
const databaseUrl = process.env.BENCH_DATABASE_URL!;
const db = createDb(databaseUrl, { max: 4 });
const server = await startSetupServer(databaseUrl, db);
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const ms = (ns: number) => Math.round(ns / 1e4) / 100;
process.on('message', (m: { cmd?: string }) => {
  if (m.cmd !== 'loop') return;
  const mem = process.memoryUsage();
  const mb = (b: number) => Math.round(b / 2 ** 20);
  const reply: ApiLoop = {
    p99Ms: ms(loop.percentile(99)),
    maxMs: ms(loop.max),
    meanMs: ms(loop.mean),
    rssMb: mb(mem.rss),
    heapUsedMb: mb(mem.heapUsed),
    externalMb: mb(mem.external),
  };
  loop.reset();
  process.send!({ done: 'loop', ...reply });
});
console.log(JSON.stringify({ url: server.url }));
process.once('SIGTERM', () => {
  void (async () => {
    await server.stop();
    await db.destroy();
    process.exit(0);
  })();
});
