/**
 * pnpm bench:import-read — what one move-in preview costs the thread that reads it: the bench:import
 * files (lib/import-files.ts: 5,000 people, 50,000 gifts) previewed as the API's preview thread does
 * (`uploadMoveIn` on the file's text, in a worker thread with the preview thread's heap limits),
 * without HTTP or another church. The church already has the file's people (contacts with their
 * Planning Center ids, as after the people file's commit), so the gifts' donors are matched.
 *
 * Prints per preview: the bytes it allocated (V8's sampling heap profiler, counting the objects
 * collected since: the garbage too), the functions that allocated most, the young and old
 * collections, and CPU ms (the thread's own, and the whole process's: V8's helper threads too).
 * Uses TEST_DATABASE_URL's server when set, else an embedded PostgreSQL. BENCH_READ_RUNS (default
 * 3) timed previews per file after one to warm up.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import { ownerDb, sql } from '@lampstand/db';
import { PREVIEW_THREAD_LIMITS } from '../src/public/imports-preview-pool.js';
import { threadEntry } from '../src/thread-entry.js';
import { giftsCsv, importSize, peopleCsv } from './lib/import-files.js';
import type { ReadThreadData, ReadThreadResult } from './lib/import-read-thread.js';

const RUNS = Number(process.env.BENCH_READ_RUNS ?? 3);
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  if (workerData.loader) (await import(workerData.loader)).register();
  const { measure } = await import(workerData.entry);
  parentPort.postMessage(await measure(workerData.data));
})().catch((err) => parentPort.postMessage({ failed: String((err && err.stack) || err) }));
`;

const size = importSize();
const pgServer = await startTestServer();
const tdb = await createTestDatabase(pgServer.serverUrl, pgServer.templateName);
try {
  const db = ownerDb(tdb.db);
  const tenantId = (
    await db
      .insertInto('users')
      .values({ username: 'bench-read', passwordHash: 'x', churchName: 'Grace Church', email: 'read@example.org' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  // The people file's people, as its commit leaves them: contacts with their Planning Center ids.
  await sql`
    with c as (
      insert into contacts (user_id, first_name, last_name, email, metadata)
      select ${tenantId}, 'Person' || g, 'Family' || (1 + (g - 1) % ${size.households}), 'person' || g || '@example.org', '{}'::jsonb
      from generate_series(1, ${size.people}) g
      returning id, first_name)
    insert into contact_external_ids (user_id, contact_id, source, external_id)
    select ${tenantId}, id, 'Planning Center', (10000 + substr(first_name, 7)::int)::text from c`.execute(db);
  const enc = new TextEncoder();
  const files = [
    { kind: 'people', fileName: 'people.csv', bytes: enc.encode(peopleCsv(size)) },
    { kind: 'gifts', fileName: 'donations.csv', bytes: enc.encode(giftsCsv(size).csv) },
  ];
  const { entry, loader } = threadEntry(import.meta.url, 'lib/import-read-thread');
  const data: ReadThreadData = { url: tdb.url, tenantId, runs: RUNS, files };
  const worker = new Worker(SOURCE, {
    eval: true,
    execArgv: [],
    resourceLimits: PREVIEW_THREAD_LIMITS,
    workerData: { entry, loader, data },
  });
  const result = await new Promise<ReadThreadResult[] | { failed: string }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  if ('failed' in result) throw new Error(result.failed);
  console.log(
    `${size.people} people in ${size.households} households, ${size.gifts} gifts; ${RUNS} previews a file after one to warm up`,
  );
  for (const r of result) {
    const mb = (b: number) => (b / 2 ** 20).toFixed(1);
    console.log(
      `${r.kind} (${mb(r.fileBytes)} MB file, ${r.rows} rows): ${mb(r.allocatedBytes)} MB allocated per preview ` +
        `(${(r.allocatedBytes / r.fileBytes).toFixed(1)}× the file); ${r.minorGcs.toFixed(1)} young and ` +
        `${r.majorGcs.toFixed(1)} old collections; CPU ${r.threadCpuMs.join(' / ')} ms of the thread, ` +
        `${r.processCpuMs.join(' / ')} ms of the process; wall ${r.wallMs.join(' / ')} ms`,
    );
    console.log(`    CPU a preview by thread: ${r.byThread.map((t) => `${t.name} ${t.ms} ms`).join(', ')}`);
    for (const f of r.top) console.log(`    ${mb(f.bytes).padStart(6)} MB  ${f.name}`);
  }
  console.log(
    `load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
} finally {
  await tdb.drop();
  await pgServer.stop();
}
