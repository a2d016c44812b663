/**
 * pnpm bench:statements — issue 30's figures: giving statements for 5,000 donors × 52 weekly gifts
 * (one PDF per donor, Inter embedded) built by the statement job's own function
 * (`buildStatementRun`, what the 'giving-statements-build' job runs) in < 60 s with the process's
 * memory (peak RSS, sampled every 50 ms) < 400 MB. Prints the figures and exits non-zero when one
 * is missed. Uses TEST_DATABASE_URL's server when set, else an embedded PostgreSQL. BENCH_DONORS
 * and BENCH_GIFTS set the size.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import { ownerDb, sql } from '@lampstand/db';
import { buildStatementRun, type JobQueue } from '@lampstand/api/server';

const DONORS = Number(process.env.BENCH_DONORS ?? 5_000);
const GIFTS = Number(process.env.BENCH_GIFTS ?? 52);
const TARGET_SECONDS = 60;
const TARGET_MB = 400;

/** The build queues the emails' job at its end; here nothing is sent. */
const noJobs: JobQueue = { send: () => Promise.resolve(null), cancel: () => Promise.resolve() };

async function main() {
  const pgServer = await startTestServer();
  const tdb = await createTestDatabase(pgServer.serverUrl, pgServer.templateName);
  const db = ownerDb(tdb.db);
  try {
    const seedStart = performance.now();
    const church = await db
      .insertInto('users')
      .values({ username: 'bench-church', email: 'bench@example.org', passwordHash: 'x', churchName: 'Grace Church' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const userId = church.id;
    await db
      .insertInto('churchSettings')
      .values({ userId, postalAddress: '12 Vine Street\nSpringfield IL 62701', taxId: '12-3456789' })
      .execute();
    const fund = await db
      .insertInto('funds')
      .values({ userId, name: 'Bench General' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`
      insert into contacts (user_id, first_name, last_name, email, metadata)
      select ${userId}, 'Donor', 'Number ' || i, 'donor' || i || '@example.org',
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
      select user_id, id, ${fund.id}, amount_cents from gifts where user_id = ${userId}`.execute(db);
    await sql`analyze`.execute(db);
    const run = await db
      .insertInto('givingStatementRuns')
      .values({ userId, fromDate: '2025-01-01', toDate: '2025-12-31' })
      .returning('id')
      .executeTakeFirstOrThrow();
    console.log(`seeded ${DONORS} donors × ${GIFTS} gifts in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

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
    await buildStatementRun({ db, jobs: noJobs }, run.id);
    const seconds = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);

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
    const mb = peak / 1024 / 1024;
    console.log(`statements built: ${built.built} of ${DONORS} (run ${status.status}, ${status.done}/${status.total})`);
    console.log(`donors with a gift count other than ${GIFTS}: ${built.wrongCount}`);
    console.log(`average PDF: ${(built.avgBytes / 1024).toFixed(1)} KiB`);
    console.log(
      `build time: ${seconds.toFixed(1)} s (target < ${TARGET_SECONDS} s), ${((seconds * 1000) / DONORS).toFixed(1)} ms a donor`,
    );
    console.log(
      `CPU time of this process while building: ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s (${os.availableParallelism()} cores, load average ${load.toFixed(1)} at the start)`,
    );
    console.log(
      `peak memory (RSS): ${mb.toFixed(0)} MB (target < ${TARGET_MB} MB); ${(before / 1024 / 1024).toFixed(0)} MB before the build, peak V8 heap used ${(peakHeap / 1024 / 1024).toFixed(0)} MB`,
    );
    const ok = built.built === DONORS && built.wrongCount === 0 && seconds < TARGET_SECONDS && mb < TARGET_MB;
    console.log(ok ? 'OK' : 'MISSED');
    process.exitCode = ok ? 0 : 1;
  } finally {
    await tdb.drop();
    await pgServer.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
