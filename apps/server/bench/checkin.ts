/**
 * pnpm bench:checkin — a Sunday morning of children's check-in: BENCH_CHILDREN children (default
 * 500) checked in at BENCH_STATIONS stations (default 4) over BENCH_MINUTES minutes (default 10; 0
 * for as fast as they go, the smoke run). Each family is looked up by the last four digits of its
 * phone (GET /api/check-in/families), its children checked in (POST /api/check-ins), its labels
 * fetched as ZPL and sent through the print bridge to a printer listener on loopback. Prints the
 * lookup p95 (target < 150 ms), the first label byte at the printer p95 from the start of the
 * check-in (target < 2 s), the number of duplicate security codes among present children (target
 * 0), and another church's p95 during the run against its baseline (target ≤ 2×).
 *
 * Uses TEST_DATABASE_URL's server when set, else an embedded PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer as createTcpServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { sql } from '@lampstand/db';
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import { loadConfig } from '../src/config.js';
import { createServer } from '../src/server.js';
import { startRuntime } from '../src/app-deps.js';
import { startPrintBridge } from '../src/cli/print-bridge.js';
import { registerChurch } from '../test/helpers/test-app.js';
import { monthsBefore, pairStation } from '../test/helpers/checkin.js';
import { percentile } from './lib/latency.js';
import { startNeighbour } from './lib/neighbour.js';

const CHILDREN = Number(process.env.BENCH_CHILDREN ?? 500);
const STATIONS = Number(process.env.BENCH_STATIONS ?? 4);
const MINUTES = Number(process.env.BENCH_MINUTES ?? 10);

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
  // The printer: when the first byte of each connection arrives.
  const firstBytes: number[] = [];
  const printer = createTcpServer((socket) => socket.once('data', () => firstBytes.push(performance.now())));
  await new Promise<void>((r) => printer.listen(0, '127.0.0.1', r));
  const printerPort = (printer.address() as { port: number }).port;
  const bridge = await startPrintBridge({ secret: 'bench-secret', printer: `127.0.0.1:${printerPort}`, port: 0 });
  try {
    await registerChurch(url, 'Platform');
    const church = await registerChurch(url, 'Bench Church');
    const c = church.client;
    const service = (await c.post('/api/check-in/services', { name: 'Sunday 9:00', weekday: 0, startsAt: '09:00' }))
      .body;
    for (const [name, min, max] of [
      ['Nursery', 0, 24],
      ['Preschool', 25, 71],
      ['Kids', 72, 144],
    ] as const)
      await c.post('/api/check-in/rooms', { name, ageMinMonths: min, ageMaxMonths: max, serviceIds: [service.id] });
    const stations = await Promise.all(
      Array.from({ length: STATIONS }, (_, i) =>
        pairStation(url, church, { name: `Station ${i + 1}`, kind: 'manned' }),
      ),
    );
    const today = (await stations[0]!.client.get('/api/check-in/station')).body.today as string;
    // Families of 1–3 children, each with its own last four digits.
    const families = CHILDREN;
    await sql`
      insert into contacts (user_id, first_name, last_name, phone, phone_e164)
      select ${church.user.id}, 'Parent', 'Family' || i, '555 01' || lpad(i::text, 4, '0'), '+155501' || lpad(i::text, 4, '0')
      from generate_series(1, ${families}::int) i`.execute(tdb.db);
    let made = 0;
    const rows: { parent: number; name: string; dob: string }[] = [];
    const parents = await tdb.db
      .selectFrom('contacts')
      .select('id')
      .where('userId', '=', church.user.id)
      .orderBy('id')
      .execute();
    for (const [i, p] of parents.entries()) {
      for (let k = 0; k < 1 + (i % 3) && made < CHILDREN; k++, made++)
        rows.push({ parent: p.id, name: `Child ${i}-${k}`, dob: monthsBefore(today, 6 + ((i * 7 + k * 13) % 130)) });
    }
    await tdb.db
      .insertInto('contactChildren')
      .values(
        rows.map((r) => ({ userId: church.user.id, parentContactId: r.parent, name: r.name, dateOfBirth: r.dob })),
      )
      .execute();
    const neighbour = await startNeighbour(url, tdb.db);
    await neighbour.baseline();
    const probe = neighbour.during();

    const lookups: number[] = [];
    const labelWaits: number[] = [];
    const withChildren = parents.slice(0, new Set(rows.map((r) => r.parent)).size);
    const gapMs = MINUTES > 0 ? (MINUTES * 60_000 * STATIONS) / withChildren.length : 0;
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      stations.map(async ({ client }) => {
        for (let i = next++; i < withChildren.length; i = next++) {
          const started = performance.now();
          const digits = String(i + 1).padStart(4, '0');
          const t = performance.now();
          const found = await client.get(`/api/check-in/families?phone=${digits}&serviceId=${service.id}`);
          lookups.push(performance.now() - t);
          const family = found.body.families[0];
          const children = family.children.map((ch: { id: number; roomId: number }) => ({
            childId: ch.id,
            roomId: ch.roomId,
          }));
          const tCheckin = performance.now();
          const done = await client.post('/api/check-ins', { familyId: family.id, serviceId: service.id, children });
          if (done.status !== 201) throw new Error(`check-in: ${done.status} ${done.text}`);
          const zpl = (await client.get(`/api/check-in/labels?securityCode=${done.body.securityCode}`)).text;
          const before = firstBytes.length;
          await fetch(`${bridge.url}/print`, {
            method: 'POST',
            headers: { authorization: 'Bearer bench-secret', 'content-type': 'application/json' },
            body: JSON.stringify({ zpl }),
          });
          while (firstBytes.length === before) await new Promise((r) => setTimeout(r, 1));
          labelWaits.push(firstBytes[firstBytes.length - 1]! - tCheckin);
          const wait = gapMs - (performance.now() - started);
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const { ratio } = await probe.stop('check-in');
    const dup = await sql<{ n: string }>`
      select count(*) as n from (select code from checkin_codes where user_id = ${church.user.id} and state = 'active'
        group by day, code having count(*) > 1) d`.execute(tdb.db);
    const checkedIn = await sql<{
      n: string;
    }>`select count(*) as n from checkins where user_id = ${church.user.id}`.execute(tdb.db);
    lookups.sort((a, b) => a - b);
    labelWaits.sort((a, b) => a - b);
    console.log(
      `\n${checkedIn.rows[0]!.n} children of ${withChildren.length} families at ${STATIONS} stations in ${seconds.toFixed(0)} s`,
    );
    console.log(
      `lookup by phone digits: p50 ${percentile(lookups, 50).toFixed(1)} ms, p95 ${percentile(lookups, 95).toFixed(1)} ms (target < 150 ms)`,
    );
    console.log(
      `first label byte at the printer: p50 ${percentile(labelWaits, 50).toFixed(0)} ms, p95 ${percentile(labelWaits, 95).toFixed(0)} ms (target < 2000 ms)`,
    );
    console.log(`duplicate security codes: ${dup.rows[0]!.n} (target 0)`);
    const ok =
      percentile(lookups, 95) < 150 && percentile(labelWaits, 95) < 2000 && Number(dup.rows[0]!.n) === 0 && ratio <= 2;
    console.log(ok ? '\nOK' : '\nFAIL: a target is missed');
    process.exitCode = ok ? 0 : 1;
  } finally {
    await bridge.close();
    printer.close();
    await server.stop();
    await runtime.close();
    await tdb.drop();
    await pgServer.stop();
    fs.rmSync(webDist, { recursive: true, force: true });
  }
}

await main();
