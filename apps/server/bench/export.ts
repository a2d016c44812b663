/**
 * pnpm bench:export — one church's whole-address-book exports must not stall the others.
 *
 * 1. Sets up two churches (in-process app, fresh database) and seeds 200,000 contacts for the first
 *    in one INSERT … SELECT over generate_series.
 * 2. Starts the app as `pnpm serve` does (compiled dist/main.js, NODE_ENV=production, workers off).
 * 3. Measures a small request of the second church (a page of its contacts) with the server idle, then
 *    again, back to back, while the first church streams the full `GET /api/contacts` and the CSV
 *    export at once (its two export slots), and samples the server's RSS every 100 ms.
 * Prints the exports' sizes and times, the small request's p50/p99/max idle and during, and the RSS;
 * exits 1 when a target is missed: small-request p99 during the exports < 500 ms, peak RSS < 300 MB.
 *
 * Env: BENCH_CONTACTS (default 200000). Needs `pnpm build`. Uses TEST_DATABASE_URL's server when set,
 * else an embedded PostgreSQL.
 */
import type { Db } from '@lampstand/db';
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import {
  fmt,
  peakRss,
  rssMb,
  seedContacts,
  setUpChurch,
  spawnApp,
  type Church,
  startSetupServer,
} from './lib/api-load.js';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 200_000);
const APP_PORT = 3993;
const TARGET_P99_MS = 500;
const TARGET_RSS_MB = 300;

async function setUp(databaseUrl: string, db: Db) {
  const server = await startSetupServer(databaseUrl, db);
  const url = server.url;
  try {
    await setUpChurch(url, 'Platform'); // the first account is the platform administrator
    const big = await setUpChurch(url, 'Big Church');
    const small = await setUpChurch(url, 'Small Church');
    await seedContacts(db, [big.tenantId], CONTACTS - 1);
    await seedContacts(db, [small.tenantId], 99);
    return { big, small };
  } finally {
    await server.stop();
  }
}

/** Start downloading `path`: resolves once the answer's headers are in (the export has its slot). */
async function openDownload(url: string, path: string, church: Church) {
  const started = performance.now();
  const res = await fetch(url + path, { headers: { cookie: church.cookie } });
  if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  /** Read to the end without keeping it; answers bytes and seconds since the request. */
  const drain = async () => {
    let bytes = 0;
    for await (const chunk of res.body!) bytes += (chunk as Uint8Array).length;
    return {
      path,
      bytes,
      seconds: (performance.now() - started) / 1000,
      encoding: res.headers.get('content-encoding'),
    };
  };
  return { drain };
}

/** The small request: the first page of the church's contacts (what the contacts screen loads). */
async function smallRequest(url: string, church: Church): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${url}/api/contacts/search?page=1&pageSize=25`, { headers: { cookie: church.cookie } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`small request: HTTP ${res.status}`);
  return performance.now() - started;
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

function line(label: string, xs: number[]) {
  return `${label.padEnd(34)}${String(xs.length).padStart(6)}${fmt(pct(xs, 0.5)).padStart(9)}${fmt(pct(xs, 0.99)).padStart(9)}${fmt(Math.max(...xs)).padStart(9)}`;
}

async function main() {
  const pgServer = await startTestServer();
  const tdb = await createTestDatabase(pgServer.serverUrl, pgServer.templateName);
  const seedStart = performance.now();
  const { big, small } = await setUp(tdb.url, tdb.db);
  console.log(
    `Seeded ${CONTACTS.toLocaleString('en')} contacts in ${fmt((performance.now() - seedStart) / 1000, 1)} s`,
  );

  const app = await spawnApp(tdb.url, APP_PORT);
  let failed = false;
  try {
    for (let i = 0; i < 20; i++) await smallRequest(app.url, small); // warm
    await new Promise((r) => setTimeout(r, 500));
    const idleMb = rssMb(app.child.pid!);
    const idle: number[] = [];
    for (let i = 0; i < 200; i++) idle.push(await smallRequest(app.url, small));

    const during: number[] = [];
    let refused = 0;
    const { result: exports, peakMb } = await peakRss(app.child.pid!, async () => {
      const opened = await Promise.all([
        openDownload(app.url, '/api/contacts', big),
        openDownload(app.url, '/api/contacts/export', big),
      ]);
      const third = await fetch(`${app.url}/api/contacts`, { headers: { cookie: big.cookie } });
      await third.arrayBuffer();
      if (third.status === 429) refused++;
      let done = false;
      const both = Promise.all(opened.map((d) => d.drain())).finally(() => {
        done = true;
      });
      while (!done) during.push(await smallRequest(app.url, small));
      return both;
    });

    console.log(`\nThe big church's exports, both at once (fetch's default Accept-Encoding):`);
    for (const e of exports)
      console.log(
        `  GET ${e.path.padEnd(22)} ${fmt(e.bytes / 1e6, 1).padStart(7)} MB (${e.encoding ?? 'identity'}) in ${fmt(e.seconds, 1)} s`,
      );
    console.log(`  a third export at the same time: ${refused ? '429 (two at once per church)' : 'NOT refused'}`);
    if (!refused) failed = true;

    console.log(`\nThe small church's first page of contacts, back to back (ms):`);
    console.log(`${''.padEnd(34)}${'n'.padStart(6)}${'p50'.padStart(9)}${'p99'.padStart(9)}${'max'.padStart(9)}`);
    console.log(line('idle', idle));
    console.log(line('during the two exports', during));
    const p99 = pct(during, 0.99);
    const latencyOk = p99 < TARGET_P99_MS;
    const rssOk = peakMb < TARGET_RSS_MB;
    if (!latencyOk || !rssOk) failed = true;
    console.log(
      `\nsmall request p99 during the exports ${fmt(p99)} ms  ${latencyOk ? 'ok' : 'MISSED'} (target < ${TARGET_P99_MS} ms)`,
    );
    console.log(
      `server RSS idle ${fmt(idleMb)} MB, peak during the exports ${fmt(peakMb)} MB  ${rssOk ? 'ok' : 'MISSED'} (target < ${TARGET_RSS_MB} MB)`,
    );
  } finally {
    await app.stop();
    await tdb.drop();
    await pgServer.stop();
  }
  if (failed) {
    console.log('\nA target was missed.');
    process.exitCode = 1;
  }
}

await main();
