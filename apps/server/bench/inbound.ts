/**
 * pnpm bench:inbound — incoming texts: 1,000 a second for 30 s through Twilio's signed
 * webhook (`POST /api/twilio/inbound`) of the server running as its own process (`src/main.ts`,
 * production mode, workers off), with BENCH_INBOUND_WORKERS worker processes (`src/worker.ts`, what
 * `pnpm worker` runs; default 2) processing what the webhook stored. Targets: every text stored
 * once (its inbound row, its message on the conversation, its `sms.received` event), each keyword's
 * actions once (the texter added to the list, the reply queued as a delivery), p95 of the webhook
 * under 100 ms. Exits non-zero when a target is missed. Printed beside them: how long after the
 * last text every text was processed.
 *
 * The texts go to BENCH_INBOUND_CHURCHES churches (default 4), each with its own number; one in
 * ten is the keyword 'Join youth!' (from a number of its own: added to the Youth list, replied to);
 * the others come from a few hundred numbers per church (half of them known contacts), so the same
 * conversations are written to again and again. After the run, one text in a hundred is posted
 * again (Twilio retries a webhook it thinks failed): nothing may change.
 *
 * The load is open-loop: requests start on schedule whether or not the earlier ones have answered,
 * so a server that falls behind shows it in the latencies. Where the time goes: the statements of
 * the webhook for one text and of the job for a batch of texts (recorded in this process through
 * the same code), and the CPU per text of the server and of the workers. The keyword replies are
 * sent to a local Twilio peer (this process).
 *
 * Small runs: BENCH_INBOUND_RATE (texts a second, default 1000), BENCH_INBOUND_SECONDS (default 30).
 * Uses TEST_DATABASE_URL's server when set, else an embedded PostgreSQL.
 */
import http from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import { sql, type Db } from '@lampstand/db';
import { processInboundTexts, receiveInboundSms, twilioSignature } from '@lampstand/api/server';
import { HttpClient } from '../test/helpers/test-app.js';
import { startFakeTwilio } from '../test/helpers/fake-twilio.js';
import { appEnv, cpuMs, serverDir, spawnServer, startSetupServer, statementRecorder } from './lib/api-load.js';
import { percentile } from './lib/latency.js';
import { startNeighbour } from './lib/neighbour.js';

const RATE = Number(process.env.BENCH_INBOUND_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_INBOUND_SECONDS ?? 30);
const CHURCHES = Number(process.env.BENCH_INBOUND_CHURCHES ?? 4);
const WORKERS = Number(process.env.BENCH_INBOUND_WORKERS ?? 2);
const NUMBERS_PER_CHURCH = 300;
const KEYWORD_EVERY = 10;
const SID = 'AC00000000000000000000000000bench';
const TOKEN = 'bench-twilio-auth-token';
const PLATFORM_NUMBER = '+15005550006';

interface Text {
  params: Record<string, string>;
  signature: string;
  body: string;
  keyword: boolean;
}

const churchNumber = (c: number) => `+1555010${String(c).padStart(4, '0')}`;
const texterNumber = (c: number, i: number) => `+1555${String(c).padStart(2, '0')}${String(i).padStart(5, '0')}`;
const keywordNumber = (i: number) => `+1556${String(i).padStart(7, '0')}`;

/** Every text of the run, made and signed before it starts (the load generator only sends). */
function makeTexts(publicUrl: string, total: number): Text[] {
  const url = `${publicUrl}/api/twilio/inbound`;
  return Array.from({ length: total }, (_, i) => {
    const church = i % CHURCHES;
    const keyword = i % KEYWORD_EVERY === 0;
    const params = {
      AccountSid: SID,
      MessageSid: `SM${i.toString(16).padStart(32, '0')}`,
      From: keyword ? keywordNumber(i) : texterNumber(church, (i * 7919) % NUMBERS_PER_CHURCH),
      To: churchNumber(church),
      Body: keyword ? 'Join youth!' : `Running late, save me a seat (${i})`,
      NumMedia: '0',
    };
    return {
      params,
      signature: twilioSignature(TOKEN, url, params),
      body: new URLSearchParams(params).toString(),
      keyword,
    };
  });
}

/** POST one text; resolves with the answer's status and the time to its last byte (ms). */
function post(agent: http.Agent, port: number, t: Text): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/twilio/inbound',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(t.body),
          'x-twilio-signature': t.signature,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(t.body);
  });
}

/** Open-loop load: `texts` at `rate` a second, started every 5 ms in small groups. */
async function load(port: number, texts: Text[], rate: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const results: Promise<{ status: number; ms: number }>[] = [];
  const t0 = performance.now();
  let next = 0;
  await new Promise<void>((done) => {
    const tick = () => {
      const due = Math.min(texts.length, Math.floor(((performance.now() - t0) / 1000) * rate));
      while (next < due) results.push(post(agent, port, texts[next++]!));
      if (next >= texts.length) return done();
      setTimeout(tick, 5);
    };
    tick();
  });
  const sent = (performance.now() - t0) / 1000;
  const answers = await Promise.all(results);
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  return { answers, sent, seconds };
}

/** A worker process (`src/worker.ts`), once it says it started. */
function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  // BENCH_INBOUND_PROFILE=<dir>: each worker writes a V8 CPU profile there too.
  const prof = process.env.BENCH_INBOUND_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_INBOUND_PROFILE}`]
    : [];
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', 'src/worker.ts'], {
    cwd: serverDir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('worker started')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`a worker exited with ${code}`)));
  });
}

/** Waits until no stored text is left unprocessed; the seconds it took. */
async function allProcessed(db: Db, deadlineS: number): Promise<number> {
  const t = performance.now();
  for (;;) {
    const left = await count(db, sql`select count(*)::int as n from sms_inbound_messages where processed_at is null`);
    if (left === 0) return (performance.now() - t) / 1000;
    if (performance.now() - t > deadlineS * 1000)
      throw new Error(`${left} texts still unprocessed after ${deadlineS} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function count(db: Db, query: ReturnType<typeof sql<{ n: number }>>): Promise<number> {
  return Number((await query.execute(db)).rows[0]?.n ?? 0);
}

async function main() {
  const pgServer = await startTestServer();
  const tdb = await createTestDatabase(pgServer.serverUrl, pgServer.templateName);
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const publicUrl = `http://127.0.0.1:${port}`;
  const recorder = statementRecorder();
  let app: Awaited<ReturnType<typeof spawnServer>> | null = null;
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>> | null = null;
  const workers: ChildProcess[] = [];
  try {
    // The churches: each with its own number, a Youth list and the keyword JOIN YOUTH (reply + list).
    const setup = await startSetupServer(tdb.url, tdb.db);
    const lists: number[] = [];
    try {
      for (let c = 0; c < CHURCHES; c++) {
        const client = new HttpClient(setup.url);
        const reg = await client.post('/api/register', {
          username: `inbound_${c}`,
          password: 'bench-pass-123',
          churchName: `Church ${c}`,
          email: `church${c}@example.org`,
        });
        if (reg.status !== 201) throw new Error(`register: ${reg.status} ${reg.text}`);
        const tenantId = reg.body.id as number;
        await client.put('/api/settings', { postalAddress: '1 Church St' });
        await tdb.db
          .updateTable('churchSettings')
          .set({ smsFromNumber: churchNumber(c) })
          .where('userId', '=', tenantId)
          .execute();
        const list = (await client.post('/api/contact-lists', { name: 'Youth', type: 'sms' })).body as { id: number };
        lists.push(list.id);
        const kw = await client.post('/api/sms-keywords', {
          keyword: 'join youth',
          replyText: 'Welcome to youth! Fridays at 7.',
          listId: list.id,
        });
        if (kw.status !== 201) throw new Error(`keyword: ${kw.status} ${kw.text}`);
        // Half of the texters are known contacts.
        await sql`
          insert into contacts (user_id, first_name, last_name, email, phone, phone_e164, sms_consent)
          select ${tenantId}, 'Texter', i::text, 'texter' || ${c} || '-' || i || '@example.org',
                 '+1555' || lpad(${c}::text, 2, '0') || lpad(i::text, 5, '0'),
                 '+1555' || lpad(${c}::text, 2, '0') || lpad(i::text, 5, '0'), 'subscribed'
          from generate_series(0, ${NUMBERS_PER_CHURCH / 2 - 1}) i`.execute(tdb.db);
      }
    } finally {
      await setup.stop();
    }

    // Where the time goes: the statements of the webhook's own code for one text, and of the job for
    // a batch of texts like the run's (one in ten a keyword), here, on numbers the run does not use.
    const jobs = { send: async () => 'id', cancel: async () => {} };
    const webhook = await recorder.record(async () => {
      await receiveInboundSms(
        tdb.db,
        { MessageSid: 'SMplain', From: '+15559999998', To: churchNumber(0), Body: 'hello' },
        PLATFORM_NUMBER,
      );
    });
    const BATCH = 200;
    for (let i = 0; i < BATCH; i++)
      await receiveInboundSms(
        tdb.db,
        {
          MessageSid: `SMprofile${i}`,
          From:
            i % KEYWORD_EVERY === 0 ? `+1557${String(i).padStart(7, '0')}` : `+15559${String(i % 50).padStart(6, '0')}`,
          To: churchNumber(i % CHURCHES),
          Body: i % KEYWORD_EVERY === 0 ? 'JOIN youth' : 'hello',
        },
        PLATFORM_NUMBER,
      );
    const t = performance.now();
    const c0 = process.cpuUsage();
    const batch = await recorder.record(async () => {
      await processInboundTexts({ db: tdb.db, jobs }, PLATFORM_NUMBER);
    });
    const c1 = process.cpuUsage(c0);
    const batchMs = performance.now() - t;
    const batchCpuMs = (c1.user + c1.system) / 1000;
    recorder.restore();
    console.log(
      `the webhook: ${webhook.length} statement a text; the job: ${batch.length} statements for ${BATCH + 1} texts ` +
        `(${(batch.length / (BATCH + 1)).toFixed(2)} a text, ${(batchMs / (BATCH + 1)).toFixed(2)} ms a text alone, ` +
        `${(batchCpuMs / (BATCH + 1)).toFixed(2)} ms of this process's CPU)`,
    );
    if (process.env.BENCH_INBOUND_STATEMENTS)
      for (const [label, p] of [
        ['webhook', webhook],
        ['job', batch],
      ] as const) {
        console.log(`${label}:`);
        for (const st of p) console.log(`  ${st.text.replace(/\s+/g, ' ').slice(0, 150)}`);
      }

    // The server as its own process, and the workers, Twilio configured (its API a local peer).
    twilio = await startFakeTwilio({ accountSid: SID, authToken: TOKEN });
    const env = {
      ...appEnv(tdb.url, port),
      PUBLIC_URL: publicUrl,
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: TOKEN,
      TWILIO_FROM_NUMBER: PLATFORM_NUMBER,
      TWILIO_API_BASE_URL: twilio.url,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    };
    for (let i = 0; i < WORKERS; i++) workers.push(await startWorker(env));
    app = await spawnServer(
      [
        // BENCH_INBOUND_PROFILE=<dir>: the server writes a V8 CPU profile there when it stops.
        ...(process.env.BENCH_INBOUND_PROFILE
          ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_INBOUND_PROFILE}`]
          : []),
        '--import',
        'tsx',
        'src/main.ts',
      ],
      env,
      port,
    );
    const total = Math.round(RATE * SECONDS);
    const texts = makeTexts(publicUrl, total);
    // Warm up on texts of their own (not counted), then the run.
    const warm = makeTexts(publicUrl, Math.min(200, total)).map((t) => {
      const params = { ...t.params, MessageSid: `${t.params.MessageSid}w`, Body: 'warm up' };
      return {
        ...t,
        params,
        body: new URLSearchParams(params).toString(),
        signature: twilioSignature(TOKEN, `${publicUrl}/api/twilio/inbound`, params),
      };
    });
    await load(port, warm, Math.min(RATE, 200));
    await allProcessed(tdb.db, 120);
    // Another church's requests, timed alone and then during the run.
    const neighbour = await startNeighbour(publicUrl, tdb.db, { headers: { origin: publicUrl } });
    await neighbour.baseline();

    const workersCpu = () => workers.reduce((sum, w) => sum + cpuMs(w.pid!), 0);
    const cpu0 = cpuMs(app.child.pid!);
    const wcpu0 = workersCpu();
    const probe = neighbour.during();
    const run = await load(port, texts, RATE);
    const cpu = cpuMs(app.child.pid!) - cpu0;
    // Everything processed: no stored text left for the job.
    const afterLast = await allProcessed(tdb.db, 600);
    const fair = await probe.stop('the texts and their processing');
    const wcpu = workersCpu() - wcpu0;
    const times = run.answers.map((a) => a.ms).sort((a, b) => a - b);
    const failed = run.answers.filter((a) => a.status !== 200).length;
    const p50 = percentile(times, 50);
    const p95 = percentile(times, 95);
    const p99 = percentile(times, 99);
    console.log(
      `${total.toLocaleString('en-US')} texts at ${RATE}/s for ${SECONDS} s to ${CHURCHES} churches: ` +
        `sent in ${run.sent.toFixed(1)} s, all answered in ${run.seconds.toFixed(1)} s ` +
        `(${(total / run.seconds).toFixed(0)} texts/s); webhook p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, ` +
        `p99 ${p99.toFixed(1)} ms, max ${times[times.length - 1]!.toFixed(0)} ms; not 200: ${failed}; ` +
        `server CPU ${(cpu / total).toFixed(2)} ms a text`,
    );
    console.log(
      `all processed ${afterLast.toFixed(1)} s after the last answer (${(run.seconds + afterLast).toFixed(1)} s after ` +
        `the first text) by ${WORKERS} workers; worker CPU ${(wcpu / total).toFixed(2)} ms a text`,
    );

    // Twilio's retries: one text in a hundred again. Nothing may change.
    const retries = texts.filter((_, i) => i % 100 === 1);
    const again = await load(port, retries, Math.min(RATE, 500));
    await allProcessed(tdb.db, 120);
    const retryFailed = again.answers.filter((a) => a.status !== 200).length;

    const ids = texts.map((t) => t.params.MessageSid!);
    const keywordTexts = texts.filter((t) => t.keyword).length;
    const stored = await count(
      tdb.db,
      sql`select count(*)::int as n from sms_inbound_messages where message_sid = any(${ids}::text[])`,
    );
    const onConversations = await count(
      tdb.db,
      sql`select count(*)::int as n from conversation_messages m join sms_inbound_messages i on i.id = m.inbound_message_id
          where i.message_sid = any(${ids}::text[])`,
    );
    const events = await count(
      tdb.db,
      sql`select count(*)::int as n from events where type = 'sms.received' and payload->>'body' not in ('warm up', 'hello', 'JOIN youth')`,
    );
    const keywordEvents = await count(
      tdb.db,
      sql`select count(*)::int as n from events where type = 'sms.received' and payload->>'keyword' = 'JOIN YOUTH'
          and payload->>'body' = 'Join youth!'`,
    );
    const joined = await count(
      tdb.db,
      sql`select count(*)::int as n from contacts_in_lists m join contacts c on c.id = m.contact_id
          where m.list_id = any(${lists}::int[]) and c.phone_e164 like '+1556%'`,
    );
    const replies = await count(
      tdb.db,
      sql`select count(*)::int as n from deliveries d join conversations v on v.id = d.conversation_id
          where d.kind = 'conversation-reply' and v.phone_e164 like '+1556%'`,
    );
    console.log(
      `stored: ${stored} inbound rows, ${onConversations} on conversations, ${events} sms.received events ` +
        `(of ${total}); keyword texts ${keywordTexts}: ${keywordEvents} events, ${joined} added to Youth, ` +
        `${replies} replies queued; ${retries.length} retried webhooks (${retryFailed} not 200) changed nothing`,
    );

    console.log(
      "\ntargets: every text stored once, keyword actions once, webhook p95 < 100 ms, another church's p95 ≤ 2× baseline",
    );
    const ok =
      failed === 0 &&
      retryFailed === 0 &&
      stored === total &&
      onConversations === total &&
      events === total &&
      keywordEvents === keywordTexts &&
      joined === keywordTexts &&
      replies === keywordTexts &&
      p95 < 100 &&
      fair.met;
    console.log(ok ? 'all targets met' : 'TARGET MISSED');
    if (!ok) process.exitCode = 1;
  } finally {
    await app?.stop();
    await Promise.all(
      workers.map(async (w) => {
        if (w.exitCode !== null) return;
        w.kill('SIGTERM');
        await new Promise((r) => w.once('exit', r));
      }),
    );
    await twilio?.close();
    await tdb.drop();
    await pgServer.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
