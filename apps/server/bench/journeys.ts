/**
 * pnpm bench:journeys — the target: 100,000 people of a list enrolled at once into a
 * journey whose first step is an email, then a 1-day wait, then a tag. Two worker processes
 * (`src/worker.ts`, what `pnpm worker` runs) send to an SMTP sink on loopback (a process of its own,
 * as a provider would be). Prints the time to
 * enrol, the time until every first email is accepted by the sink (target < 2 min), duplicates and
 * missing ones (target 0); then passes the day on the clock (every waiting enrolment's wait is
 * moved a day earlier, as if the day had passed) and prints the time until every person has run
 * the next step (target < 60 s). Meanwhile another church's first page of contacts (GET
 * /api/contacts/search, 50 a page, as the Contacts screen asks for it; it has 2,000) is
 * timed against its baseline (target p95 ≤ 2×). Uses TEST_DATABASE_URL's server when set, else an
 * embedded PostgreSQL. BENCH_PEOPLE sets the size.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import pg from 'pg';
import { performance } from 'node:perf_hooks';
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import { ownerDb, sql } from '@lampstand/db';
import { appEnv, spawnServer, startSetupServer, type Spawned } from './lib/api-load.js';
import { HttpClient } from '../test/helpers/test-app.js';
import { seedListContacts } from './lib/campaigns.js';
import { percentile } from './lib/latency.js';
import { pacedBaseline, pacedRequest } from './lib/neighbour.js';
import { startSinkProcess } from './lib/smtp-sink-process.js';
import { startCpuMeter } from './lib/cpu-meter.js';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 100_000);
const WORKERS = 2;

function startWorker(databaseUrl: string, smtpUrl: string): ChildProcess {
  // BENCH_CPU_PROF=<dir>: each worker writes a CPU profile there (node --cpu-prof) when it stops.
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  return spawn(process.execPath, [...prof, '--import', 'tsx', 'src/worker.ts'], {
    // PGAPPNAME: its PostgreSQL backends are told apart from the API's in the CPU figures.
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      EMAIL_SMTP_URL: smtpUrl,
      PGAPPNAME: 'lampstand-worker',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** A query on TEST_DATABASE_URL's own connection (a superuser's: pg_stat_statements). */
async function asSuperuser<T>(run: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client(process.env.TEST_DATABASE_URL);
  await c.connect();
  try {
    return await run(c);
  } finally {
    await c.end();
  }
}

async function until(what: () => Promise<boolean>, label: string, deadlineS: number) {
  const end = performance.now() + deadlineS * 1000;
  while (!(await what())) {
    if (performance.now() > end) throw new Error(`timed out: ${label}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function main() {
  const pgServer = await startTestServer();
  const tdb = await createTestDatabase(pgServer.serverUrl, pgServer.templateName);
  const sink = await startSinkProcess();
  // The churches are set up through an API in this process; the timed requests go to the API as
  // its own process (as `pnpm serve` runs it, workers elsewhere), which this process does not share.
  const setup = await startSetupServer(tdb.url, tdb.db);
  let setupStopped = false;
  const url = setup.url;
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  let api: Spawned | null = null;
  const workers: ChildProcess[] = [];
  try {
    await new HttpClient(url).post('/api/register', {
      username: 'platform',
      password: 'bench-pass',
      churchName: 'Platform',
      email: 'p@example.org',
    });
    const register = async (username: string) => {
      const client = new HttpClient(url);
      const id = (
        await client.post('/api/register', {
          username,
          password: 'bench-pass',
          churchName: username,
          email: `${username}@example.org`,
        })
      ).body.id as number;
      await sql`update users set email_verified_at = now() where id = ${id}`.execute(tdb.db);
      return { client, id };
    };
    const church = await register('bench');
    const neighbour = await register('neighbour');
    const nList = (await neighbour.client.post('/api/contact-lists', { name: 'Members' })).body as { id: number };
    await seedListContacts(tdb.db, neighbour.id, nList.id, 2000, 'n');
    const list = (await church.client.post('/api/contact-lists', { name: 'Everyone' })).body as { id: number };
    await seedListContacts(tdb.db, church.id, list.id, PEOPLE, 'person');
    await sql`analyze`.execute(ownerDb(tdb.db));
    const j = (
      await church.client.post('/api/journeys', {
        name: 'Bench journey',
        trigger: { kind: 'manual' },
        steps: [
          {
            id: 'welcome',
            kind: 'email',
            name: 'Welcome',
            subject: 'Welcome {{firstName}}',
            content: '<p>Hello</p>',
            next: 'day',
          },
          { id: 'day', kind: 'wait', wait: { mode: 'duration', amount: 1, unit: 'days' }, next: 'tag' },
          { id: 'tag', kind: 'add_tag', tag: 'day-two', next: null },
        ],
      })
    ).body as { id: number };
    await church.client.post(`/api/journeys/${j.id}/activate`);

    const neighbourList = () => neighbour.client.get('/api/contacts/search?pageSize=50');
    await setup.stop();
    setupStopped = true;
    api = await spawnServer(
      ['--import', 'tsx', 'src/main.ts'],
      { ...appEnv(tdb.url, port), RUN_WORKERS: 'false', LOG_LEVEL: 'warn', PGAPPNAME: 'lampstand-api' },
      port,
    );
    // The same sessions (one session store, one secret), on the API process.
    for (const c of [church, neighbour]) {
      const on = new HttpClient(api.url, { origin: api.url });
      on.cookies = c.client.cookies;
      c.client = on;
    }
    // The workers started (and idle) before the baseline: their start-up is not timed as sending.
    for (let i = 0; i < WORKERS; i++) workers.push(startWorker(tdb.url, sink.url));
    await new Promise((r) => setTimeout(r, 8000));
    const baseline = await pacedBaseline(neighbourList);

    const meter = startCpuMeter(
      tdb.db,
      { workers: workers.map((w) => w.pid!), 'the API process': [api.child.pid!], 'the SMTP sink': [sink.pid] },
      (app) => (app === 'lampstand-worker' ? 'the workers' : app === 'lampstand-jobs' ? 'pg-boss' : 'the API'),
    );
    const dbT0 = (await sql<{ now: Date }>`select clock_timestamp() as now`.execute(tdb.db)).rows[0]!.now;
    // BENCH_PGSS=1 (a server with shared_preload_libraries = 'pg_stat_statements', TEST_DATABASE_URL a
    // superuser's): the 30 statements that took the most time until the last first email, printed.
    if (process.env.BENCH_PGSS)
      await asSuperuser(async (c) => {
        await c.query('create extension if not exists pg_stat_statements');
        await c.query('select pg_stat_statements_reset()');
      });
    const t0 = performance.now();
    const enrolled = await church.client.post(`/api/journeys/${j.id}/enroll`, { listId: list.id });
    if (enrolled.body?.enrolled !== PEOPLE) throw new Error(`enrolled ${JSON.stringify(enrolled.body)}`);
    const enrolSeconds = (performance.now() - t0) / 1000;
    // The neighbour's requests (ten a second) while the first emails go out: its first page, as the
    // Contacts screen asks for it.
    const during: number[] = [];
    let sending = true;
    const windows: number[][] = [];
    const probe = (async () => {
      while (sending) {
        const w = Math.floor((performance.now() - t0) / 5000);
        const ms = await pacedRequest(neighbourList);
        during.push(ms);
        (windows[w] ??= []).push(ms);
      }
    })();
    await until(async () => (await sink.stats('person')).distinct >= PEOPLE, 'every first email', 1800);
    const firstSeconds = (performance.now() - t0) / 1000;
    const cpu = await meter.stop();
    if (process.env.BENCH_PGSS) {
      const top = await asSuperuser((c) =>
        c.query(`select calls::int, round(total_exec_time)::int as ms, rows::int,
                        left(regexp_replace(query, '\\s+', ' ', 'g'), 200) as q
                 from pg_stat_statements order by total_exec_time desc limit 30`),
      );
      for (const r of top.rows) console.log(`PGSS ${r.ms} ms ${r.calls} calls ${r.rows} rows | ${r.q}`);
    }
    sending = false;
    await probe;
    await new Promise((r) => setTimeout(r, 2000));
    const people = await sink.stats('person');
    // Where the time went: the runner queuing the deliveries, the engine sending them.
    const span = (
      await sql<{ queuedFirst: number; queuedLast: number; sentFirst: number; sentLast: number }>`
        select extract(epoch from min(created_at) - ${dbT0}::timestamptz)::float as queued_first,
               extract(epoch from max(created_at) - ${dbT0}::timestamptz)::float as queued_last,
               extract(epoch from min(sent_at) - ${dbT0}::timestamptz)::float as sent_first,
               extract(epoch from max(sent_at) - ${dbT0}::timestamptz)::float as sent_last
        from deliveries where journey_id = ${j.id}`.execute(tdb.db)
    ).rows[0]!;
    const duplicates = people.duplicates;
    const missing = PEOPLE - people.distinct;

    // A day passes: every wait ends a day earlier.
    const waiting = await sql<{ n: number }>`
      update journey_enrollments set wait_until = wait_until - interval '1 day', next_run_at = next_run_at - interval '1 day'
      where journey_id = ${j.id} and status = 'active' and wait_until is not null`.execute(tdb.db);
    const t1 = performance.now();
    const tagged = async () =>
      Number(
        (
          await sql<{ n: number }>`
            select count(*)::int as n from journey_step_runs r join journey_enrollments e on e.id = r.enrollment_id
            where e.journey_id = ${j.id} and r.step_id = 'tag'`.execute(tdb.db)
        ).rows[0]!.n,
      );
    await until(async () => (await tagged()) >= PEOPLE, 'every next step', 1800);
    const nextSeconds = (performance.now() - t1) / 1000;

    during.sort((a, b) => a - b);

    const p95 = (t: number[]) => percentile(t, 95);
    console.log(`${PEOPLE.toLocaleString('en-US')} people, ${WORKERS} worker processes`);
    console.log(`enrolled from the list in ${enrolSeconds.toFixed(1)} s`);
    console.log(
      `every first email accepted ${firstSeconds.toFixed(1)} s after the enrolment began ` +
        `(${(PEOPLE / firstSeconds).toFixed(0)}/s); duplicates ${duplicates}, missing ${missing}`,
    );
    console.log(
      `  deliveries queued by the runner ${span.queuedFirst.toFixed(1)}–${span.queuedLast.toFixed(1)} s, ` +
        `sent ${span.sentFirst.toFixed(1)}–${span.sentLast.toFixed(1)} s ` +
        `(${(PEOPLE / Math.max(0.001, span.sentLast - span.sentFirst)).toFixed(0)} msg/s while sending)`,
    );
    if (cpu) {
      // Per first email, from the enrolment until the last was accepted (the runner's moves included).
      const per = (s: number) => `${((s * 1000) / PEOPLE).toFixed(2)} ms`;
      const total = [...cpu.values()].reduce((a, b) => a + b, 0);
      console.log(
        `  CPU per first email: ${per(total)} in all — ` +
          [...cpu].map(([role, s]) => `${role} ${per(s)}`).join(', ') +
          ` (load average ${os.loadavg()[0]!.toFixed(1)})`,
      );
    }
    console.log(
      `a day passed (${Number(waiting.numAffectedRows ?? 0).toLocaleString('en-US')} waits ended): ` +
        `every next step run in ${nextSeconds.toFixed(1)} s`,
    );
    // When the wait falls: the p95 of each 5 seconds of the sending (the runner's moves come first).
    const byWindow = windows.map((w) =>
      percentile(
        w.sort((a, b) => a - b),
        95,
      ).toFixed(0),
    );
    console.log(`  its p95 (ms) by 5 s from the enrolment: ${byWindow.join(' ')}`);
    console.log(
      `another church's first page of contacts p50: ${percentile(baseline, 50).toFixed(1)} ms alone, ` +
        `${percentile(during, 50).toFixed(1)} ms meanwhile (${during.length} requests)`,
    );
    console.log(
      `another church's first page of contacts p95: ${p95(baseline).toFixed(1)} ms alone, ${p95(during).toFixed(1)} ms meanwhile ` +
        `(${(p95(during) / p95(baseline)).toFixed(2)}×)`,
    );
    const met =
      firstSeconds < 120 && duplicates === 0 && missing === 0 && nextSeconds < 60 && p95(during) <= 2 * p95(baseline);
    console.log('\ntargets: first emails < 120 s, 0 duplicates, 0 missing, next step < 60 s, p95 ≤ 2× baseline');
    console.log(met ? 'all targets met' : 'TARGET MISSED');
    if (!met) process.exitCode = 1;
  } finally {
    // The workers gone before their database is dropped.
    await Promise.all(
      workers.map((w) => {
        const gone = new Promise((r) => w.once('exit', r));
        w.kill('SIGTERM');
        return gone;
      }),
    );
    await api?.stop();
    if (!setupStopped) await setup.stop();
    await sink.close();
    await tdb.drop();
    await pgServer.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
