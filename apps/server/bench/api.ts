/**
 * pnpm bench:api — the app's overhead against a bare Fastify + `pg` server doing the same database work.
 *
 * 1. Sets up a church with 1,000 contacts and a published landing page (in-process app, fresh database).
 * 2. Records, from the app's own pg pool, the statements each endpoint runs on a warm request.
 * 3. Starts the app as `pnpm serve` does (compiled dist/main.js, NODE_ENV=production, workers off) and
 *    the bare server (bench/api-bare.ts) that replays those statements after checking the same cookie.
 * 4. autocannon drives both with the same connections and duration, alternating app / bare per round.
 * Prints req/s, p50 and p99 per endpoint and the ratios; exits 1 when a row misses
 * (app ≥ 70% of bare req/s, app p99 ≤ 2× bare p99), or the app's RSS idle ≥ 200 MB or peak under this load
 * > 250 MB. The app runs with `pnpm serve`'s node options (serveNodeOptions).
 *
 * Env: BENCH_DURATION (s per run, default 5), BENCH_ROUNDS (default 2), BENCH_CONNECTIONS (10),
 * BENCH_CPU_PROF=dir (run the app under --cpu-prof, profile written to dir on exit), BENCH_NODE_ARGS (more
 * node options for the app, e.g. to try a V8 flag),
 * BENCH_ONLY=regex (drive only the rows whose label, e.g. 'tRPC contacts first page', matches; for profiling one).
 * Needs `pnpm build`. Uses TEST_DATABASE_URL's server when set, else an embedded PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type { Db } from '@lampstand/db';
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import type { RecordedEndpoint } from './api-bare.js';
import {
  SESSION_COOKIE_NAME,
  SESSION_SECRET,
  endpointsFor,
  benchPort,
  fmt,
  headersFor,
  cpuMs,
  peakRss,
  rssMb,
  seedContacts,
  sendEndpoint,
  setUpChurch,
  spawnApp,
  spawnServer,
  statementRecorder,
  type Church,
  type Endpoint,
  startSetupServer,
} from './lib/api-load.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const CONTACTS = 1000;
const APP_PORT = benchPort(0);
const BARE_PORT = benchPort(1);

async function setUp(databaseUrl: string, db: Db) {
  const server = await startSetupServer(databaseUrl, db);
  const url = server.url;
  const recorder = statementRecorder();
  try {
    await setUpChurch(url, 'Platform'); // the first account is the platform administrator
    const church = await setUpChurch(url, 'Bench Church');
    await seedContacts(db, [church.tenantId], CONTACTS - 1);
    const endpoints = endpointsFor(church);
    const recorded: RecordedEndpoint[] = [];
    for (const e of endpoints) {
      await sendEndpoint(url, e, church); // warm: page cache filled, visit counted
      let html: string | undefined;
      const statements = await recorder.record(async () => {
        const text = await sendEndpoint(url, e, church);
        if (e.shim === 'public') html = text;
      });
      const sid = e.auth ? decodeURIComponent(church.cookie.split('=')[1]!).split('.')[0]! : null;
      recorded.push({ method: e.method, path: e.path, auth: e.auth, sid, statements, html });
    }
    return { church, endpoints, recorded };
  } finally {
    recorder.restore();
    await server.stop();
  }
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  /** CPU time (user + system) the server process spent per request, in µs: robust to a loaded machine. */
  cpuUs: number;
}

async function drive(url: string, pid: number, e: Endpoint, church: Church): Promise<Run> {
  const cpuBefore = cpuMs(pid);
  const r = await autocannon({
    url: url + e.path,
    method: e.method,
    headers: headersFor(e, church, url),
    body: e.body,
    connections: CONNECTIONS,
    duration: DURATION,
  });
  if (r.non2xx || r.errors || r.timeouts)
    throw new Error(`${url} ${e.shim} ${e.name}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
  const cpuUs = ((cpuMs(pid) - cpuBefore) * 1000) / Math.max(1, r.requests.total);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, cpuUs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function main() {
  const pgServer = await startTestServer();
  const tdb = await createTestDatabase(pgServer.serverUrl, pgServer.templateName);
  const recordingFile = path.join(os.tmpdir(), `lampstand-bench-api-${process.pid}.json`);
  const { church, endpoints, recorded } = await setUp(tdb.url, tdb.db);
  fs.writeFileSync(recordingFile, JSON.stringify({ cookieName: SESSION_COOKIE_NAME, endpoints: recorded }));
  console.log('Statements per request (recorded from the app, replayed by the bare server):');
  for (const [i, e] of endpoints.entries())
    console.log(`  ${e.shim.padEnd(6)} ${e.name.padEnd(20)} ${recorded[i]!.statements.length}`);

  const profDir = process.env.BENCH_CPU_PROF;
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  if (profDir) nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${profDir}`);
  const app = await spawnApp(tdb.url, APP_PORT, nodeArgs);
  const bare = await spawnServer(
    ['--import', 'tsx', 'bench/api-bare.ts'],
    { DATABASE_URL: tdb.url, SESSION_SECRET, RECORDING: recordingFile },
    BARE_PORT,
  );
  let failed = false;
  try {
    await new Promise((r) => setTimeout(r, 1000));
    const idleMb = rssMb(app.child.pid!);
    const runs = new Map<Endpoint, { app: Run[]; bare: Run[] }>();
    const { peakMb } = await peakRss(app.child.pid!, async () => {
      const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : null;
      for (const e of endpoints.filter((x) => !only || only.test(`${x.shim} ${x.name}`))) {
        // Warm both (JIT, pools, caches), then alternate app and bare.
        await sendEndpoint(app.url, e, church);
        await sendEndpoint(bare.url, e, church);
        const r = { app: [] as Run[], bare: [] as Run[] };
        for (let i = 0; i < ROUNDS; i++) {
          r.app.push(await drive(app.url, app.child.pid!, e, church));
          r.bare.push(await drive(bare.url, bare.child.pid!, e, church));
        }
        runs.set(e, r);
      }
    });

    console.log(
      `\n${CONNECTIONS} connections, ${DURATION} s per run, ${ROUNDS} alternating rounds (req/s: mean; latency: median of rounds;` +
        ` µs: the server process's CPU time per request, median of rounds)`,
    );
    console.log(
      `${'endpoint'.padEnd(28)}${'app req/s'.padStart(10)}${'bare req/s'.padStart(11)}${'ratio'.padStart(7)}` +
        `${'app p50'.padStart(9)}${'bare p50'.padStart(9)}${'app p99'.padStart(9)}${'bare p99'.padStart(9)}${'p99 ×'.padStart(7)}` +
        `${'app µs'.padStart(8)}${'bare µs'.padStart(8)}`,
    );
    for (const [e, r] of runs) {
      const a = {
        rps: mean(r.app.map((x) => x.rps)),
        p50: median(r.app.map((x) => x.p50)),
        p99: median(r.app.map((x) => x.p99)),
        cpuUs: median(r.app.map((x) => x.cpuUs)),
      };
      const b = {
        rps: mean(r.bare.map((x) => x.rps)),
        p50: median(r.bare.map((x) => x.p50)),
        p99: median(r.bare.map((x) => x.p99)),
        cpuUs: median(r.bare.map((x) => x.cpuUs)),
      };
      const ratio = a.rps / b.rps;
      const p99x = a.p99 / Math.max(b.p99, 1);
      const ok = ratio >= 0.7 && p99x <= 2;
      if (!ok) failed = true;
      console.log(
        `${`${e.shim} ${e.name}`.padEnd(28)}${fmt(a.rps).padStart(10)}${fmt(b.rps).padStart(11)}${`${fmt(ratio * 100)}%`.padStart(7)}` +
          `${fmt(a.p50).padStart(9)}${fmt(b.p50).padStart(9)}${fmt(a.p99).padStart(9)}${fmt(b.p99).padStart(9)}${fmt(p99x, 2).padStart(7)}` +
          `${fmt(a.cpuUs).padStart(8)}${fmt(b.cpuUs).padStart(8)}` +
          `  ${ok ? 'ok' : 'MISSED (target ≥ 70%, p99 ≤ 2×)'}`,
      );
    }
    // Idle < 200 MB; peak under this load ≤ 250 MB.
    const rssOk = idleMb < 200 && peakMb <= 250;
    if (!rssOk) failed = true;
    console.log(
      `\napp RSS idle ${fmt(idleMb)} MB, peak under this load ${fmt(peakMb)} MB  ${rssOk ? 'ok' : 'MISSED (idle < 200 MB, peak ≤ 250 MB)'}`,
    );
  } finally {
    await app.stop();
    await bare.stop();
    fs.rmSync(recordingFile, { force: true });
    await tdb.drop();
    await pgServer.stop();
  }
  if (failed) {
    console.log('\nA target was missed.');
    process.exitCode = 1;
  }
}

await main();
