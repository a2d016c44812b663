/**
 * A worker process for the benches (what `pnpm worker` runs: the job handlers, no HTTP) on
 * BENCH_DATABASE_URL, with the test configuration but production's pacing: WORKER_CPU_PERCENT
 * (BENCH_WORKER_CPU_PERCENT, default 70) and the worker's priority (BENCH_WORKER_NICE, default
 * production's WORKER_NICE of 10). Prints one JSON line when it takes jobs; stops on SIGTERM.
 */
import { createDb } from '@lampstand/db';
import { loadConfig } from '../../src/config.js';
import { startRuntime } from '../../src/app-deps.js';
import { lowerProcessPriority } from '../../src/priority.js';
import { BENCH_SECRETS_KEY } from './setup-server.js';

const databaseUrl = process.env.BENCH_DATABASE_URL!;
const config = {
  ...loadConfig({
    NODE_ENV: 'test',
    // The API process's key: what it sealed (the church's delivery settings) opens here.
    SECRETS_KEY: BENCH_SECRETS_KEY,
    WORKER_CPU_PERCENT: process.env.BENCH_WORKER_CPU_PERCENT ?? '70',
    WORKER_NICE: process.env.BENCH_WORKER_NICE ?? '10',
  }),
  databaseUrl,
  logLevel: 'silent' as const,
};
if (config.workerNice > 0) lowerProcessPriority(config.workerNice);
const db = createDb(databaseUrl, { max: 6 });
const runtime = await startRuntime(config, db, databaseUrl, { work: true, pollingIntervalSeconds: 0.5 });
console.log(JSON.stringify({ ready: true, pacedAt: config.workerCpuPercent, nice: config.workerNice }));
process.once('SIGTERM', () => {
  void (async () => {
    await runtime.close();
    await db.destroy();
    process.exit(0);
  })();
});
