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
 * AB_ONLY=regex (rows to drive, default every JSON row), AB_A_NODE_ARGS / AB_B_NODE_ARGS (node options
 * of each side after `pnpm serve`'s own, e.g. to try a V8 flag). Needs TEST_DATABASE_URL or an embedded PostgreSQL.
 */
import path from 'node:path';
import autocannon from 'autocannon';
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
}

async function drive(s: Spawned, e: Endpoint, church: Church): Promise<Run> {
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
  return { rps: r.requests.average, cpuUs: ((cpuMs(s.child.pid!) - before) * 1000) / Math.max(1, r.requests.total) };
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

const nodeArgs = (v: string | undefined) => (v ?? '').split(/\s+/).filter(Boolean);
const a = await spawnServer(
  [...serveNodeOptions(), ...nodeArgs(process.env.AB_A_NODE_ARGS), path.join(A, 'main.js')],
  appEnv(tdb.url, benchPort(0)),
  benchPort(0),
);
const b = await spawnServer(
  [...serveNodeOptions(), ...nodeArgs(process.env.AB_B_NODE_ARGS), path.join(B, 'main.js')],
  appEnv(tdb.url, benchPort(1)),
  benchPort(1),
);
try {
  console.log(`A ${A}\nB ${B}\n10 connections, ${ROUNDS} rounds of ${DURATION} s each (A B, then B A)`);
  for (const e of endpointsFor(church).filter((x) => ONLY.test(`${x.shim} ${x.name}`))) {
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
    const side = (runs: Run[]) =>
      `req/s ${runs.map((r) => fmt(r.rps)).join(' ')} (median ${fmt(median(runs.map((r) => r.rps)))}); ` +
      `CPU µs ${runs.map((r) => fmt(r.cpuUs)).join(' ')} (median ${fmt(median(runs.map((r) => r.cpuUs)))})`;
    const paired = (k: keyof Run) => fmt(median(ra.map((r, i) => r[k] / rb[i]![k])), 2);
    console.log(
      `\n${e.shim} ${e.name}\n  A ${side(ra)}\n  B ${side(rb)}\n  A/B paired medians: req/s ${paired('rps')}, CPU µs ${paired('cpuUs')}`,
    );
  }
} finally {
  await a.stop();
  await b.stop();
  await tdb.drop();
  await pgServer.stop();
}
