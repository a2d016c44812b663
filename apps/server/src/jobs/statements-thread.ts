import { Worker } from 'node:worker_threads';
import type { JobQueue } from '@lampstand/api/server';
import { threadEntry } from '../thread-entry.js';

/**
 * The 'giving-statements-build' job builds a run's PDFs in a worker thread with a heap of its own,
 * capped (the target: 5,000 donors × 52 gifts in < 60 s, the process < 400 MB). The build
 * makes a lot of short-lived garbage (pdfkit documents, font subsets); on the worker process's main
 * heap, which has every module of the app loaded, V8 let it grow by ~185 MB before collecting. In
 * a thread whose heap is capped, it is collected as it goes, and a run too large for the cap fails
 * alone (the run is marked failed) instead of taking the worker process down with it.
 *
 * Like the QR render pool, the thread's first lines are plain JavaScript run with `eval`: from the
 * TypeScript sources (tsx, vitest) they register tsx's loader before importing the entry; in the
 * esbuild-built server the entry is `dist/statements-build-thread.js`.
 */
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  if (workerData.loader) (await import(workerData.loader)).register();
  const { runStatementBuild } = await import(workerData.entry);
  parentPort.postMessage({ result: await runStatementBuild(workerData.input) });
})().catch((err) => parentPort.postMessage({ error: String((err && err.stack) || err) }));
`;

/** The thread's heap: enough for a chunk of 50 statements and the print PDF's data, not much more. */
export const STATEMENT_THREAD_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

/** Build run `runId` in a thread, then queue its emails' job. */
export async function buildStatementsInThread(
  deps: { databaseUrl: string; jobs: JobQueue },
  runId: number,
  opts: { chunkSize?: number } = {},
): Promise<void> {
  const { entry, loader } = threadEntry(import.meta.url, 'statements-build-thread');
  const { emails } = await new Promise<{ emails: number }>((resolve, reject) => {
    const worker = new Worker(SOURCE, {
      eval: true,
      execArgv: [],
      resourceLimits: STATEMENT_THREAD_LIMITS,
      workerData: { entry, loader, input: { databaseUrl: deps.databaseUrl, runId, chunkSize: opts.chunkSize } },
    });
    let settled = false;
    worker.once('message', (m: { result?: { emails: number }; error?: string }) => {
      settled = true;
      if (m.result) resolve(m.result);
      else reject(new Error(`Building the statements failed: ${m.error ?? 'unknown error'}`));
    });
    worker.once('error', (err) => {
      settled = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`The statements' thread stopped (exit code ${code})`));
    });
  });
  if (emails > 0) await deps.jobs.send('giving-statement-deliver', { runId });
}
