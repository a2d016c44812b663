/**
 * pnpm bench:pages — requests per second and p99 latency of a published landing page at
 * /p/{slug} (server-rendered, each view counted as a visit with its source) next to a static file
 * of the same bytes served by the same process (@fastify/static), in one run, with autocannon.
 * Target: the page at ≥ 50% of the static file's rate.
 * Uses TEST_DATABASE_URL's server when set, else an embedded PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import { loadConfig } from '../src/config.js';
import { createServer } from '../src/server.js';
import { startRuntime } from '../src/app-deps.js';
import { EASTER_SUNDAY_PAGE, registerChurch } from '../test/helpers/test-app.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1';

async function run(label: string, url: string) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: { 'user-agent': UA },
  });
  const line = `${label.padEnd(34)} ${result.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(
    result.latency.p50,
  ).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(4)} ms   errors ${result.errors + result.non2xx}`;
  console.log(line);
  return result;
}

async function main() {
  const pgServer = await startTestServer();
  const tdb = await createTestDatabase(pgServer.serverUrl, pgServer.templateName);
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'lampstand-bench-web-'));
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>app</title>');
  const config = {
    ...loadConfig({ NODE_ENV: 'test' }),
    port: 0,
    host: '127.0.0.1',
    databaseUrl: tdb.url,
    logLevel: 'silent',
    webDist,
    runWorkers: false,
  };
  const runtime = await startRuntime(config, tdb.db, tdb.url, { work: false });
  const server = await createServer(config, runtime.deps);
  const url = await server.start();
  try {
    await registerChurch(url, 'Platform');
    const { client: church } = await registerChurch(url, 'Bench Church');
    const page = await church.post('/api/landing-pages', EASTER_SUNDAY_PAGE);
    if (page.status !== 201) throw new Error(`page not created: ${page.status} ${page.text}`);
    const html = await (await fetch(`${url}/p/easter-sunday`)).text();
    fs.writeFileSync(path.join(webDist, 'static-page.html'), html);

    console.log(
      `\n${CONNECTIONS} connections, ${DURATION} s each, ${os.cpus().length} cores; page ${Buffer.byteLength(html)} bytes\n`,
    );
    // Warm both paths (JIT, pool), then measure.
    await autocannon({ url: `${url}/static-page.html`, connections: 10, duration: 2 });
    await autocannon({ url: `${url}/p/easter-sunday`, connections: 10, duration: 2, headers: { 'user-agent': UA } });
    const stat = await run('static file (same bytes)', `${url}/static-page.html`);
    const dyn = await run('/p/{slug} (rendered, visit counted)', `${url}/p/easter-sunday?lsrc=qr.1`);
    await runtime.deps.pages.visits.flush();
    const counted = await tdb.db
      .selectFrom('landingPageVisits')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const ratio = dyn.requests.average / stat.requests.average;
    console.log(`\nvisits recorded: ${Number(counted.n).toLocaleString('en-US')}`);
    console.log(`page / static: ${(ratio * 100).toFixed(0)}%   (target ≥ 50%: ${ratio >= 0.5 ? 'met' : 'NOT met'})`);
  } finally {
    await server.stop();
    await runtime.close();
    await tdb.drop();
    await pgServer.stop();
    fs.rmSync(webDist, { recursive: true, force: true });
  }
}

await main();
