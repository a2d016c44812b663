/**
 * bench:statements' building process: runs the 'giving-statements-build' job's own function
 * (`buildStatementsInThread`: the build in a thread with a capped heap) for BENCH_RUN_ID on
 * BENCH_DATABASE_URL and prints its figures as one JSON line. Like the worker process, it has every
 * module of the api package loaded first (`@lampstand/api/server`), so its memory is the worker's.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { JobQueue } from '@lampstand/api/server';
import { buildStatementsInThread } from '../../src/jobs/statements-thread.js';

await import('@lampstand/api/server');

/** The build queues the emails' job at its end; here nothing is sent. */
const noJobs: JobQueue = { send: () => Promise.resolve(null), cancel: () => Promise.resolve() };

const before = process.memoryUsage().rss;
let peak = before;
let peakHeap = process.memoryUsage().heapUsed;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peak = Math.max(peak, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
}, 50);
const load = os.loadavg()[0]!;
const cpuStart = process.cpuUsage();
const start = performance.now();
await buildStatementsInThread(
  { databaseUrl: process.env.BENCH_DATABASE_URL!, jobs: noJobs },
  Number(process.env.BENCH_RUN_ID),
);
const seconds = (performance.now() - start) / 1000;
const cpu = process.cpuUsage(cpuStart);
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
console.log(JSON.stringify({ seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, load, before, peak, peakHeap }));
