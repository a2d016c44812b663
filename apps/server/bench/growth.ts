/**
 * pnpm bench:growth — the bench:api endpoints as the data grows: 1k, 10k and 100k contacts in one
 * church, then 10, 100 and 1,000 churches of 5,000 contacts each (50k, 500k, 5M rows in all; the
 * measured church always has 1,000). Contacts are seeded with INSERT … SELECT generate_series.
 * For each size the app (compiled dist/main.js, as `pnpm serve`) is started on the grown database and
 * each endpoint gets BENCH_ROUNDS sequential requests (one connection: latency, not throughput).
 * Prints p50/p95 per endpoint and size; exits 1 when an endpoint's p95 at the largest size of a series
 * is over its target times its p95 at the smallest (the search 2×, the others 1.5×).
 * Writes EXPLAIN (ANALYZE, BUFFERS) of the slowest endpoint's statements at the largest size to stdout.
 *
 * Env: BENCH_ROUNDS (default 200), BENCH_CHURCH_CONTACTS (contacts per extra church, default 5000),
 * BENCH_MAX_CHURCHES (default 1000; lower it on a small disk), BENCH_PORT (the app's port; default from
 * the pid, so two runs on one machine do not meet). Needs `pnpm build`.
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import { refreshContactStatistics } from '@lampstand/api/server';
import { sql, type Db } from '@lampstand/db';
import {
  endpointsFor,
  fmt,
  seedContacts,
  sendEndpoint,
  setUpChurch,
  spawnApp,
  statementRecorder,
  type Church,
  type Endpoint,
  startSetupServer,
} from './lib/api-load.js';
import type { RecordedStatement } from './api-bare.js';
import { percentile, timeRequests } from './lib/latency.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const PER_CHURCH = Number(process.env.BENCH_CHURCH_CONTACTS ?? 5000);
const MAX_CHURCHES = Number(process.env.BENCH_MAX_CHURCHES ?? 1000);
// Its own port per run (two runs on one machine must not meet), as BENCH_PORT or from the pid.
const PORT = Number(process.env.BENCH_PORT ?? 20_000 + (process.pid % 20_000));

/** The targets: a search's p95 at 100k within 2× of 1k; the first page and the dashboard 1.5×. */
const targetFor = (e: Endpoint) => (e.name === 'contacts search' ? 2 : 1.5);

async function measure(url: string, e: Endpoint, church: Church) {
  const times = await timeRequests(`${e.shim} ${e.name}`, { warmUp: 10, rounds: ROUNDS }, () =>
    sendEndpoint(url, e, church),
  );
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/** Add church accounts straight in SQL (no password needed: they are never signed in). */
async function addChurches(db: Db, count: number): Promise<number[]> {
  const tag = `${Date.now().toString(36)}${count}`;
  const { rows } = await sql<{ id: number }>`
    insert into users (username, password_hash, church_name, email, role)
    select 'growth_' || g || '_' || ${tag}, 'x', 'Growth Church ' || g, 'growth' || g || '_' || ${tag} || '@example.org', 'church'
    from generate_series(1, ${count}) g returning id`.execute(db);
  return rows.map((r) => r.id);
}

async function main() {
  const pgServer = await startTestServer();
  const tdb = await createTestDatabase(pgServer.serverUrl, pgServer.templateName);
  const db = tdb.db;
  try {
    await run(tdb.url, db);
  } finally {
    await tdb.drop();
    await pgServer.stop();
  }
}

async function run(databaseUrl: string, db: Db) {
  const server = await startSetupServer(databaseUrl, db);
  const setupUrl = server.url;
  await setUpChurch(setupUrl, 'Platform');
  // The measured church grows in the first series; in the second it stays at 1,000 among many.
  const grown = await setUpChurch(setupUrl, 'Growing Church');
  const among = await setUpChurch(setupUrl, 'One Of Many');
  // The statements behind each endpoint, for EXPLAIN at the end (the parameters stay valid as data grows).
  const recorder = statementRecorder();
  const statements = new Map<string, RecordedStatement[]>();
  for (const e of endpointsFor(among)) {
    await sendEndpoint(setupUrl, e, among);
    statements.set(
      `${e.shim} ${e.name}`,
      await recorder.record(async () => {
        await sendEndpoint(setupUrl, e, among);
      }),
    );
  }
  recorder.restore();
  await server.stop();

  type Size = { series: string; label: string; church: Church; prepare: () => Promise<void> };
  let grownCount = 1;
  let churches = 0;
  const growTo = (n: number) => async () => {
    await seedContacts(db, [grown.tenantId], n - grownCount);
    grownCount = n;
  };
  const churchesTo = (n: number) => async () => {
    if (churches === 0) await seedContacts(db, [among.tenantId], 999);
    const ids = await addChurches(db, n - churches);
    await seedContacts(db, ids, PER_CHURCH);
    churches = n;
  };
  const sizes: Size[] = [
    { series: 'one church', label: '1k contacts', church: grown, prepare: growTo(1000) },
    { series: 'one church', label: '10k contacts', church: grown, prepare: growTo(10_000) },
    { series: 'one church', label: '100k contacts', church: grown, prepare: growTo(100_000) },
    ...[10, 100, 1000]
      .filter((n) => n <= MAX_CHURCHES)
      .map((n) => ({
        series: 'many churches',
        label: `${n} churches (${fmt((n * PER_CHURCH) / 1000)}k rows)`,
        church: among,
        prepare: churchesTo(n),
      })),
  ];

  const table: { size: Size; e: Endpoint; p50: number; p95: number }[] = [];
  try {
    for (const size of sizes) {
      const t = performance.now();
      await size.prepare();
      // What the contact import does at the end of a large import (services/contacts/import-run.ts):
      // the figures are the church at its new size, not the minute before autovacuum analyzes it
      // and merges the search index's pending list (nor the night before a church past 20,000
      // contacts gets its own search index).
      await refreshContactStatistics(db, size.church.tenantId);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from contacts`.execute(db);
      console.log(`${size.label}: seeded in ${fmt((performance.now() - t) / 1000, 1)} s (${rows[0]!.n} contact rows)`);
      const app = await spawnApp(databaseUrl, PORT);
      try {
        for (const e of endpointsFor(size.church)) table.push({ size, e, ...(await measure(app.url, e, size.church)) });
      } finally {
        await app.stop();
      }
    }
  } finally {
    const { rows } = await sql<{
      size: string;
    }>`select pg_size_pretty(pg_database_size(current_database())) as size`.execute(db);
    console.log(`database size at the end: ${rows[0]!.size}`);
  }

  let failed = false;
  let slowest: { e: Endpoint; church: Church; p95: number } | undefined;
  for (const series of ['one church', 'many churches']) {
    const inSeries = sizes.filter((s) => s.series === series);
    console.log(`\n${series}: p50 / p95 in ms, ${ROUNDS} sequential requests each`);
    console.log(
      `${'endpoint'.padEnd(28)}${inSeries.map((s) => s.label.padStart(28)).join('')}${'largest/smallest'.padStart(18)}`,
    );
    for (const e of endpointsFor(inSeries[0]!.church)) {
      const cells = inSeries.map((s) => table.find((r) => r.size === s && r.e.shim === e.shim && r.e.name === e.name)!);
      const ratio = cells[cells.length - 1]!.p95 / cells[0]!.p95;
      const target = targetFor(e);
      const ok = ratio <= target;
      if (!ok) failed = true;
      const last = cells[cells.length - 1]!;
      if (!slowest || last.p95 > slowest.p95) slowest = { e: last.e, church: last.size.church, p95: last.p95 };
      console.log(
        `${`${e.shim} ${e.name}`.padEnd(28)}${cells.map((c) => `${fmt(c.p50, 1)} / ${fmt(c.p95, 1)}`.padStart(28)).join('')}` +
          `${`${fmt(ratio, 2)}×`.padStart(18)}  ${ok ? `ok (≤ ${target}×)` : `MISSED (≤ ${target}×)`}`,
      );
    }
  }
  if (slowest) await explain(databaseUrl, slowest, statements.get(`${slowest.e.shim} ${slowest.e.name}`) ?? []);
  if (failed) {
    console.log('\nA target was missed.');
    process.exitCode = 1;
  }
}

/** EXPLAIN (ANALYZE, BUFFERS) of the endpoint's own statements (not the session and user reads). */
async function explain(databaseUrl: string, slowest: { e: Endpoint; church: Church }, statements: RecordedStatement[]) {
  console.log(`\nslowest at the largest size: ${slowest.e.shim} ${slowest.e.name} (church ${slowest.church.tenantId})`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const s of statements) {
      if (/from "(sessions|users)"|^(begin|commit|rollback)/i.test(s.text)) continue;
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${s.text}`, s.values);
      console.log(`${s.text}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}\n`);
    }
  } finally {
    await client.end();
  }
}

await main();
