/**
 * pnpm --filter @lampstand/server bench:api-ab — two builds of the app side by side, e.g. before and
 * after a change to the request path, on a machine too busy for `pnpm bench:api`'s separate runs.
 *
 * Both builds (AB_A and AB_B: `dist` directories copied under apps/server, so their imports resolve)
 * run at once on one database with bench:api's church of 1,000 contacts; each endpoint is driven
 * alternately, A then B, then B then A, in short rounds, so both see the same load. Prints per
 * endpoint each side's req/s and CPU µs per request (its process's user + system time over the
 * round, per request), and the medians of the paired A/B ratios.
 *
 * Env: AB_A, AB_B (required), AB_ROUNDS (default 8), AB_DURATION (s per run, default 3),
 * AB_ONLY=regex (rows to drive, default every JSON row, and the events API), AB_A_NODE_ARGS /
 * AB_B_NODE_ARGS (node options of each side after `pnpm serve`'s own, e.g. to try a V8 flag),
 * AB_PGBOUNCER=1 (both sides reach PostgreSQL through one PgBouncer in transaction mode, as
 * `BENCH_PGBOUNCER=1 pnpm bench:replica` does; each side's runs also print PgBouncer's transactions,
 * queries and CPU µs per request). Needs TEST_DATABASE_URL or an embedded PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { envThrough, startPgBouncer, type PgBouncer } from './lib/pgbouncer.js';
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import {
  appEnv,
  benchPort,
  cpuMs,
  endpointsFor,
  fmt,
  headersFor,
  seedContacts,
  serverDir,
  serveNodeOptions,
  setUpChurch,
  spawnServer,
  startSetupServer,
  type Church,
  type Endpoint,
  type Spawned,
} from './lib/api-load.js';

const ROUNDS = Number(process.env.AB_ROUNDS ?? 8);
const DURATION = Number(process.env.AB_DURATION ?? 3);
const ONLY = new RegExp(process.env.AB_ONLY ?? '^(REST|tRPC) ', 'i');
const [A, B] = [process.env.AB_A, process.env.AB_B].map((d) => {
  if (!d) throw new Error('Set AB_A and AB_B to two built dist directories under apps/server');
  return path.resolve(serverDir, d);
}) as [string, string];

interface Run {
  rps: number;
  cpuUs: number;
  /** Through PgBouncer: its transactions, queries and CPU µs per request. */
  pgb?: { tx: number; queries: number; cpuUs: number };
}

let bouncer: (PgBouncer & { pid: () => number }) | undefined;

async function drive(s: Spawned, e: Endpoint, church: Church): Promise<Run> {
  const pgbBefore = bouncer && { stats: await bouncer.stats(), cpu: cpuMs(bouncer.pid()) };
  const before = cpuMs(s.child.pid!);
  const r = await autocannon({
    url: s.url + e.path,
    method: e.method,
    headers: headersFor(e, church, s.url),
    body: e.body,
    connections: 10,
    duration: DURATION,
  });
  if (r.non2xx || r.errors || r.timeouts)
    throw new Error(`${s.url} ${e.shim} ${e.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  const n = Math.max(1, r.requests.total);
  const run: Run = { rps: r.requests.average, cpuUs: ((cpuMs(s.child.pid!) - before) * 1000) / n };
  if (bouncer && pgbBefore) {
    const stats = await bouncer.stats();
    run.pgb = {
      tx: (stats.transactions - pgbBefore.stats.transactions) / n,
      queries: (stats.queries - pgbBefore.stats.queries) / n,
      cpuUs: ((cpuMs(bouncer.pid()) - pgbBefore.cpu) * 1000) / n,
    };
  }
  return run;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const pgServer = await startTestServer();
const tdb = await createTestDatabase(pgServer.serverUrl, pgServer.templateName);
const setup = await startSetupServer(tdb.url, tdb.db);
await setUpChurch(setup.url, 'Platform'); // the first account is the platform administrator
const church = await setUpChurch(setup.url, 'Bench Church');
await seedContacts(tdb.db, [church.tenantId], 999);
await setup.stop();

if (process.env.AB_PGBOUNCER === '1') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lampstand-ab-pgbouncer-'));
  fs.chmodSync(dir, 0o755);
  const server = new URL(tdb.url);
  const b = await startPgBouncer({
    dir,
    server: { host: server.hostname, port: Number(server.port || 5432) },
    users: [tdb.url, appEnv(tdb.url, 0).DATABASE_URL!],
  });
  bouncer = { ...b, pid: () => Number(fs.readFileSync(path.join(dir, 'pgbouncer.pid'), 'utf8').trim()) };
}
/** The app's settings: straight to PostgreSQL, or through PgBouncer (LISTEN always straight). */
function envFor(port: number): Record<string, string> {
  const env = appEnv(tdb.url, port);
  return bouncer ? envThrough(bouncer, env) : env;
}
const nodeArgs = (v: string | undefined) => (v ?? '').split(/\s+/).filter(Boolean);
const a = await spawnServer(
  [...serveNodeOptions(), ...nodeArgs(process.env.AB_A_NODE_ARGS), path.join(A, 'main.js')],
  envFor(benchPort(0)),
  benchPort(0),
);
const b = await spawnServer(
  [...serveNodeOptions(), ...nodeArgs(process.env.AB_B_NODE_ARGS), path.join(B, 'main.js')],
  envFor(benchPort(1)),
  benchPort(1),
);
try {
  console.log(`A ${A}\nB ${B}\n10 connections, ${ROUNDS} rounds of ${DURATION} s each (A B, then B A)`);
  const events: Endpoint = {
    name: 'events API (50)',
    shim: 'REST',
    method: 'GET',
    path: '/api/events?limit=50',
    auth: true,
  };
  for (const e of [...endpointsFor(church), events].filter((x) => ONLY.test(`${x.shim} ${x.name}`))) {
    for (const s of [a, b])
      for (let i = 0; i < 3; i++)
        await fetch(s.url + e.path, { method: e.method, headers: headersFor(e, church, s.url), body: e.body });
    const ra: Run[] = [];
    const rb: Run[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      if (i % 2 === 0) {
        ra.push(await drive(a, e, church));
        rb.push(await drive(b, e, church));
      } else {
        rb.push(await drive(b, e, church));
        ra.push(await drive(a, e, church));
      }
    }
    const through = (runs: Run[]) => {
      const of = (k: 'tx' | 'queries' | 'cpuUs') => median(runs.map((r) => r.pgb?.[k] ?? 0));
      return runs[0]?.pgb
        ? `; PgBouncer a request: ${fmt(of('tx'), 2)} transactions, ${fmt(of('queries'), 2)} queries, CPU µs ${runs.map((r) => fmt(r.pgb!.cpuUs)).join(' ')} (median ${fmt(of('cpuUs'))})`
        : '';
    };
    const side = (runs: Run[]) =>
      `req/s ${runs.map((r) => fmt(r.rps)).join(' ')} (median ${fmt(median(runs.map((r) => r.rps)))}); ` +
      `CPU µs ${runs.map((r) => fmt(r.cpuUs)).join(' ')} (median ${fmt(median(runs.map((r) => r.cpuUs)))})` +
      through(runs);
    const paired = (k: 'rps' | 'cpuUs') => fmt(median(ra.map((r, i) => r[k] / rb[i]![k])), 2);
    console.log(
      `\n${e.shim} ${e.name}\n  A ${side(ra)}\n  B ${side(rb)}\n  A/B paired medians: req/s ${paired('rps')}, CPU µs ${paired('cpuUs')}`,
    );
  }
  const errors = bouncer?.errors() ?? [];
  if (errors.length) throw new Error(`PgBouncer logged errors:\n${errors.slice(0, 10).join('\n')}`);
} finally {
  await a.stop();
  await b.stop();
  await bouncer?.stop();
  await tdb.drop();
  await pgServer.stop();
}
