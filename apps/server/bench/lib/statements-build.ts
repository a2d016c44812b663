/**
 * bench:statements' building process: runs `buildStatementRun` (what the 'giving-statements-build'
 * job runs) for BENCH_RUN_ID on BENCH_DATABASE_URL and prints its figures as one JSON line.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createDb, ownerDb } from '@lampstand/db';
import { buildStatementRun, type JobQueue } from '@lampstand/api/server';

/** The build queues the emails' job at its end; here nothing is sent. */
const noJobs: JobQueue = { send: () => Promise.resolve(null), cancel: () => Promise.resolve() };

const db = createDb(process.env.BENCH_DATABASE_URL!, { max: 2 });
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
await buildStatementRun({ db: ownerDb(db), jobs: noJobs }, Number(process.env.BENCH_RUN_ID));
const seconds = (performance.now() - start) / 1000;
const cpu = process.cpuUsage(cpuStart);
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
await db.destroy();
console.log(JSON.stringify({ seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, load, before, peak, peakHeap }));
