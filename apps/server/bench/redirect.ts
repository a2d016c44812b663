/**
 * pnpm bench:redirect — the QR short-link redirect `/s/{code}` (scans recorded) next to a bare
 * Fastify route answering the same 302, in one run. autocannon, keep-alive connections, a phone's
 * user agent (so every request counts as a scan). Prints requests per second and latency
 * percentiles of both, the ratio, and checks every scan was written.
 * Uses TEST_DATABASE_URL's server when set, else an embedded PostgreSQL.
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import { loadConfig } from '../src/config.js';
import { createServer } from '../src/server.js';
import { startRuntime } from '../src/app-deps.js';
import { HttpClient } from '../test/helpers/test-app.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  redirects: number;
  errors: number;
}

async function run(url: string): Promise<Figures> {
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { 'user-agent': UA },
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    redirects: r['3xx'],
    errors: r.errors + r.non2xx - r['3xx'],
  };
}

const line = (label: string, f: Figures) =>
  `${label.padEnd(34)} ${f.rps.toFixed(0).padStart(7)} req/s   p50 ${f.p50.toFixed(1).padStart(5)} ms   p99 ${f.p99
    .toFixed(1)
    .padStart(5)} ms   (${f.redirects.toLocaleString('en-US')} redirects, ${f.errors} errors)`;

async function main() {
  const pgServer = await startTestServer();
  const tdb = await createTestDatabase(pgServer.serverUrl, pgServer.templateName);
  const config = {
    ...loadConfig({ NODE_ENV: 'test' }),
    port: 0,
    host: '127.0.0.1',
    databaseUrl: tdb.url,
    logLevel: 'silent',
    publicUrl: 'http://lampstand.bench',
  };
  const runtime = await startRuntime(config, tdb.db, tdb.url, { work: false });
  const server = await createServer(config, runtime.deps);
  const url = await server.start();
  const bare = Fastify({ logger: false });
  try {
    const church = new HttpClient(url);
    await church.post('/api/register', {
      username: 'bench',
      password: 'bench-pass',
      churchName: 'Bench Church',
      email: 'b@example.org',
    });
    const code = (
      await church.post('/api/qr-codes', {
        name: 'Bench banner',
        url: 'http://lampstand.bench/p/easter',
        isShortUrl: true,
        utmSource: 'banner',
      })
    ).body as { id: number; shortCode: string };
    const shortPath = `/s/${code.shortCode}?src=qr`;
    const location = (
      await fetch(url + shortPath, { redirect: 'manual', headers: { 'user-agent': 'bench warm-up bot' } })
    ).headers.get('location')!;
    bare.get('/s/:code', async (_req, reply) => reply.header('cache-control', 'no-store').redirect(location, 302));
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;

    console.log(
      `${SECONDS} s per run, ${CONNECTIONS} connections, ${ROUNDS} rounds alternating; redirect to ${location}\n`,
    );
    const ours: Figures[] = [];
    const bares: Figures[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      bares.push(await run(bareUrl + shortPath));
      console.log(line(`bare Fastify 302 (round ${i + 1})`, bares[i]!));
      ours.push(await run(url + shortPath));
      console.log(line(`/s/{code} with scans (round ${i + 1})`, ours[i]!));
    }
    const best = (xs: Figures[]) => xs.reduce((a, b) => (b.rps > a.rps ? b : a));
    const o = best(ours);
    const b = best(bares);
    const ratio = o.rps / b.rps;
    console.log(
      `\nbest of each: /s/{code} ${o.rps.toFixed(0)} req/s vs bare ${b.rps.toFixed(0)} req/s = ${(ratio * 100).toFixed(0)}%`,
    );
    console.log(`p99: /s/{code} ${o.p99.toFixed(1)} ms vs bare ${b.p99.toFixed(1)} ms`);

    // Every counted redirect is written (after the last batch flushes).
    const expected = ours.reduce((n, f) => n + f.redirects, 0);
    const deadline = Date.now() + 30_000;
    let written = 0;
    while (Date.now() < deadline) {
      written = ((await church.get(`/api/qr-codes/${code.id}`)).body as { scans: number }).scans;
      if (written >= expected) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    console.log(`scans recorded: ${written.toLocaleString('en-US')} of ${expected.toLocaleString('en-US')} redirects`);
    console.log('\ntarget: /s/{code} at least 60% of the bare route with scans recorded');
    console.log(ratio >= 0.6 && written >= expected ? 'target met' : 'TARGET MISSED');
  } finally {
    await bare.close();
    await server.stop();
    await runtime.close();
    await tdb.drop();
    await pgServer.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
