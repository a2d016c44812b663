/**
 * pnpm bench:statements — the target: giving statements for 5,000 donors × 52 weekly gifts
 * (one PDF per donor, Inter embedded) built by the statement job's own function
 * (`buildStatementsInThread`, what the 'giving-statements-build' job runs: the build in a worker
 * thread with a capped heap), in a process of its own with every module of the api package loaded
 * as in a worker, in < 60 s with that process's memory (peak RSS of the whole process, threads
 * included, sampled every 50 ms) < 400 MB. Prints the figures and exits non-zero when one is
 * missed. Uses TEST_DATABASE_URL's server when set, else an embedded PostgreSQL. BENCH_DONORS and
 * BENCH_GIFTS set the size; BENCH_WITHOUT_EMAIL donors have no email (their statements are in the
 * one PDF to print).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import { ownerDb, sql } from '@lampstand/db';
import { spawn } from 'node:child_process';
import { seedGivingChurch } from './lib/giving-church.js';
import { startNeighbour } from './lib/neighbour.js';
import { startSetupServer } from './lib/api-load.js';

const DONORS = Number(process.env.BENCH_DONORS ?? 5_000);
const GIFTS = Number(process.env.BENCH_GIFTS ?? 52);
/** Donors without an email: their statements go in the one PDF to print. */
const WITHOUT_EMAIL = Number(process.env.BENCH_WITHOUT_EMAIL ?? 0);
const TARGET_SECONDS = 60;
const TARGET_MB = 400;

interface BuildFigures {
  seconds: number;
  cpuSeconds: number;
  load: number;
  before: number;
  peak: number;
  peakHeap: number;
}

/** `bench/lib/statements-build.ts` in a new process: the build's figures. */
function buildInChild(databaseUrl: string, runId: number): Promise<BuildFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/statements-build.ts'], {
      env: { ...process.env, BENCH_DATABASE_URL: databaseUrl, BENCH_RUN_ID: String(runId) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code === 0) resolve(JSON.parse(line) as BuildFigures);
      else reject(new Error(`the build process failed (${code}): ${out}`));
    });
  });
}

async function main() {
  const pgServer = await startTestServer();
  const tdb = await createTestDatabase(pgServer.serverUrl, pgServer.templateName);
  const db = ownerDb(tdb.db);
  // An API in this process, for another church's requests timed during the build.
  const api = await startSetupServer(tdb.url, tdb.db);
  try {
    const seedStart = performance.now();
    const { userId, fundId } = await seedGivingChurch(db);
    await db
      .insertInto('churchSettings')
      .values({ userId, postalAddress: '12 Vine Street\nSpringfield IL 62701', taxId: '12-3456789' })
      .execute();
    await sql`
      insert into contacts (user_id, first_name, last_name, email, metadata)
      select ${userId}, 'Donor', 'Number ' || i, case when i > ${WITHOUT_EMAIL} then 'donor' || i || '@example.org' end,
             jsonb_build_object('address', i || ' River Rd', 'city', 'Springfield', 'state', 'IL', 'postalCode', '62702')
      from generate_series(1, ${DONORS}) i`.execute(db);
    // Weekly from the first Sunday of 2025: 52 dates in the year.
    await sql`
      insert into gifts (user_id, contact_id, amount_cents, method, status, frequency, completed_at,
                         idempotency_key, receipt_token)
      select c.user_id, c.id, 2500 + (c.id % 7) * 100, 'card', 'completed', 'weekly',
             timestamptz '2025-01-05 15:00:00+00' + make_interval(days => 7 * w),
             'bench-' || c.id || '-' || w, 'bench-receipt-' || c.id || '-' || w
      from contacts c cross join generate_series(0, ${GIFTS - 1}) w
      where c.user_id = ${userId}`.execute(db);
    await sql`
      insert into gift_lines (user_id, gift_id, fund_id, amount_cents)
      select user_id, id, ${fundId}, amount_cents from gifts where user_id = ${userId}`.execute(db);
    await sql`analyze`.execute(ownerDb(db));
    const run = await db
      .insertInto('givingStatementRuns')
      .values({ userId, fromDate: '2025-01-01', toDate: '2025-12-31' })
      .returning('id')
      .executeTakeFirstOrThrow();
    console.log(`seeded ${DONORS} donors × ${GIFTS} gifts in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

    const neighbour = await startNeighbour(api.url, tdb.db);
    await neighbour.baseline();
    // The build runs in a process of its own, as the job does in a worker: its memory is the job's.
    const probe = neighbour.during();
    const child = await buildInChild(tdb.url, run.id);
    const fair = await probe.stop('the build');
    const { seconds, cpuSeconds, load, before, peak, peakHeap } = child;

    const built = await db
      .selectFrom('givingStatements')
      .select([
        sql<number>`count(*) filter (where pdf is not null)::int`.as('built'),
        sql<number>`coalesce(avg(length(pdf)), 0)::int`.as('avgBytes'),
        sql<number>`count(*) filter (where gift_count <> ${GIFTS})::int`.as('wrongCount'),
      ])
      .where('runId', '=', run.id)
      .executeTakeFirstOrThrow();
    const status = await db
      .selectFrom('givingStatementRuns')
      .select(['status', 'done', 'total'])
      .where('id', '=', run.id)
      .executeTakeFirstOrThrow();
    const combined = await db
      .selectFrom('givingStatementRuns')
      .select(sql<number>`coalesce(length(combined_pdf), 0)::int`.as('bytes'))
      .where('id', '=', run.id)
      .executeTakeFirstOrThrow();
    const mb = peak / 1024 / 1024;
    console.log(`statements built: ${built.built} of ${DONORS} (run ${status.status}, ${status.done}/${status.total})`);
    console.log(`donors with a gift count other than ${GIFTS}: ${built.wrongCount}`);
    console.log(`average PDF: ${(built.avgBytes / 1024).toFixed(1)} KiB`);
    if (WITHOUT_EMAIL > 0)
      console.log(`PDF to print: ${WITHOUT_EMAIL} donors, ${(combined.bytes / 1024 / 1024).toFixed(1)} MiB`);
    console.log(
      `build time: ${seconds.toFixed(1)} s (target < ${TARGET_SECONDS} s), ${((seconds * 1000) / DONORS).toFixed(1)} ms a donor`,
    );
    console.log(
      `CPU time of the building process: ${cpuSeconds.toFixed(1)} s (${os.availableParallelism()} cores, load average ${load.toFixed(1)} at the start)`,
    );
    console.log(
      `peak memory (RSS): ${mb.toFixed(0)} MB (target < ${TARGET_MB} MB); ${(before / 1024 / 1024).toFixed(0)} MB before the build, peak V8 heap used ${(peakHeap / 1024 / 1024).toFixed(0)} MB`,
    );
    const ok =
      built.built === DONORS && built.wrongCount === 0 && seconds < TARGET_SECONDS && mb < TARGET_MB && fair.met;
    console.log(ok ? 'OK' : 'MISSED');
    process.exitCode = ok ? 0 : 1;
  } finally {
    await api.stop();
    await tdb.drop();
    await pgServer.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
