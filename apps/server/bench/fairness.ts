/**
 * pnpm bench:fairness — no church can stall another.
 *
 * One app process as `pnpm serve` runs it (dist/main.js, production, workers in the process, mail to
 * a counting SMTP server on loopback). Church A has BENCH_CONTACTS contacts (default 200,000) and a
 * list of half of them; church B has 100. B makes ordinary requests back to back (its contacts' first
 * page, a search, the dashboard, its campaigns, its QR codes) with the server idle — the baseline —
 * and then during each of A's attacks, one at a time:
 *
 *   1. qr-preview     three loops of tRPC batches of QR previews at size 1000 (distinct data, so no
 *                     cache helps); one batch of 100 is tried first (the server refuses over 10)
 *   2. contacts-find  two loops of tRPC batches of contacts.find searches over A's contacts
 *   3. contacts-list  four tRPC contacts.list (whole-table read) at once, each second
 *   4. export         the 200,000-row CSV export, read to the end
 *   5. import         a 200,000-row CSV import, until it completes
 *   6. campaign       an email campaign to 100,000 people, until it is sent
 *
 * Prints B's p50/p95 in each phase against the baseline and the server's peak RSS; exits 1 when a
 * target is missed: B's p95 ≤ 2× its baseline and RSS < 600 MB during every attack.
 * Env: BENCH_CONTACTS, BENCH_ATTACK_SECONDS (loops' length, default 20). Needs `pnpm build`.
 * Uses TEST_DATABASE_URL's server when set, else an embedded PostgreSQL.
 */
import { SMTPServer } from 'smtp-server';
import { ownerDb, sql, type Db } from '@lampstand/db';
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import {
  appEnv,
  fmt,
  peakRss,
  rssMb,
  seedContacts,
  setUpChurch,
  spawnServer,
  startSetupServer,
  type Church,
} from './lib/api-load.js';
import { HttpClient } from '../test/helpers/test-app.js';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 200_000);
const ATTACK_SECONDS = Number(process.env.BENCH_ATTACK_SECONDS ?? 20);
const APP_PORT = 3994;
const TARGET_RATIO = 2;
const TARGET_RSS_MB = 600;

/** A real SMTP server on loopback that accepts and counts, keeping nothing (the bench's CPU stays small). */
async function startCountingSmtp(): Promise<{ url: string; count(): number; close(): Promise<void> }> {
  let n = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, done) {
      stream.on('end', () => {
        n++;
        done();
      });
      stream.resume();
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}?tls=off`,
    count: () => n,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function setUp(databaseUrl: string, db: Db) {
  const server = await startSetupServer(databaseUrl, db);
  try {
    await setUpChurch(server.url, 'Platform');
    const a = await setUpChurch(server.url, 'Church A');
    const b = await setUpChurch(server.url, 'Church B');
    await seedContacts(db, [a.tenantId], CONTACTS - 1);
    await seedContacts(db, [b.tenantId], 99);
    // A verified account (new churches reach 100 people a day until then) and a list of half its contacts.
    await sql`update users set email_verified_at = now() where id = ${a.tenantId}`.execute(db);
    const list = (await a.client.post('/api/contact-lists', { name: 'Everyone (half)' })).body as { id: number };
    await sql`
      insert into contacts_in_lists (user_id, contact_id, list_id)
      select user_id, id, ${list.id} from contacts where user_id = ${a.tenantId} and id % 2 = 0`.execute(db);
    await sql`analyze contacts_in_lists`.execute(ownerDb(db));
    for (let i = 0; i < 5; i++)
      await b.client.post('/api/qr-codes', { name: `B code ${i}`, url: `https://example.org/b/${i}` });
    return { a, b, listId: list.id };
  } finally {
    await server.stop();
  }
}

const pct = (xs: number[], p: number) =>
  xs.length ? [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(xs.length * p))]! : NaN;

/** Church B's ordinary requests, in turn. */
const ORDINARY = [
  '/api/contacts/search?page=1&pageSize=25',
  '/api/contacts/search?page=1&pageSize=25&search=smi',
  '/api/dashboard/stats',
  '/api/email-campaigns',
  '/api/qr-codes',
];

async function ordinaryRequest(url: string, church: Church, i: number): Promise<number> {
  const started = performance.now();
  const res = await fetch(url + ORDINARY[i % ORDINARY.length], { headers: { cookie: church.cookie } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${ORDINARY[i % ORDINARY.length]}: HTTP ${res.status}`);
  return performance.now() - started;
}

/** B's requests, back to back, until `until` settles; returns their times (ms). */
async function measureWhile(url: string, church: Church, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const times: number[] = [];
  let i = 0;
  while (!done) times.push(await ordinaryRequest(url, church, i++));
  return times;
}

const trpcBatch = (proc: string, inputs: unknown[]) =>
  `/trpc/${Array(inputs.length).fill(proc).join(',')}?batch=1&input=${encodeURIComponent(
    JSON.stringify(Object.fromEntries(inputs.map((v, i) => [i, v]))),
  )}`;

/** Loops of `request` for ATTACK_SECONDS, `loops` at once; counts the answers by status. */
async function loops(loopsAtOnce: number, request: (n: number) => Promise<number>) {
  const statuses = new Map<number, number>();
  const end = Date.now() + ATTACK_SECONDS * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: loopsAtOnce }, async () => {
      while (Date.now() < end) {
        const s = await request(n++).catch(() => 0);
        statuses.set(s, (statuses.get(s) ?? 0) + 1);
      }
    }),
  );
  return `${n} requests: ${[...statuses].map(([s, c]) => `${c} × ${s || 'error'}`).join(', ')}`;
}

async function getStatus(url: string, path: string, cookie: string): Promise<number> {
  const res = await fetch(url + path, { headers: { cookie } });
  await res.arrayBuffer();
  return res.status;
}

async function waitFor<T>(what: string, check: () => Promise<T | undefined>, seconds = 900): Promise<T> {
  const end = Date.now() + seconds * 1000;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`${what}: not done after ${seconds} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function main() {
  if (!process.env.TEST_DATABASE_URL && process.env.DATABASE_URL)
    process.env.TEST_DATABASE_URL = process.env.DATABASE_URL;
  const pgServer = await startTestServer();
  const tdb = await createTestDatabase(pgServer.serverUrl, pgServer.templateName);
  const smtp = await startCountingSmtp();
  const seedStart = performance.now();
  const { a, b, listId } = await setUp(tdb.url, tdb.db);
  console.log(
    `Seeded ${CONTACTS.toLocaleString('en')} contacts for church A in ${fmt((performance.now() - seedStart) / 1000, 1)} s`,
  );
  const app = await spawnServer(
    ['dist/main.js'],
    { ...appEnv(tdb.url, APP_PORT), RUN_WORKERS: 'true', EMAIL_SMTP_URL: smtp.url, LOG_LEVEL: 'warn' },
    APP_PORT,
  );
  const url = app.url;
  const aClient = new HttpClient(url);
  aClient.cookies = a.client.cookies;
  const rows: { name: string; note: string; times: number[]; peakMb: number }[] = [];
  let failed = false;
  try {
    for (let i = 0; i < 50; i++) await ordinaryRequest(url, b, i); // warm
    const idleMb = rssMb(app.child.pid!);
    const baselineEnd = new Promise((r) => setTimeout(r, ATTACK_SECONDS * 1000));
    const baseline = await measureWhile(url, b, baselineEnd);

    const attacks: { name: string; run: () => Promise<string> }[] = [
      {
        name: 'qr-preview',
        run: async () => {
          const preview = (n: number) => ({ data: `https://e.org/f${n}`, size: 1000 });
          const hundred = await getStatus(
            url,
            trpcBatch(
              'qrCodes.preview',
              Array.from({ length: 100 }, (_, i) => preview(-i - 1)),
            ),
            a.cookie,
          );
          const summary = await loops(3, (n) =>
            getStatus(
              url,
              trpcBatch(
                'qrCodes.preview',
                Array.from({ length: 10 }, (_, i) => preview(n * 10 + i)),
              ),
              a.cookie,
            ),
          );
          return `a batch of 100: ${hundred}; batches of 10, 3 loops: ${summary}`;
        },
      },
      {
        name: 'contacts-find',
        run: async () => {
          const words = ['smi', 'jon', 'gra', 'dav', 'sar', 'pet', 'rut', 'sam', 'han', 'jam'];
          const summary = await loops(2, (n) =>
            getStatus(
              url,
              trpcBatch(
                'contacts.find',
                Array.from({ length: 10 }, (_, i) => ({
                  page: 1 + ((n + i) % 50),
                  pageSize: 100,
                  search: words[(n + i) % words.length],
                })),
              ),
              a.cookie,
            ),
          );
          return `batches of 10 searches, 2 loops: ${summary}`;
        },
      },
      {
        name: 'contacts-list',
        // The issue's attack: four at once (each built 200,000 rows in memory), again every second.
        run: async () =>
          `tRPC contacts.list, 4 at once each second: ${await loops(4, async () => {
            const started = Date.now();
            const status = await getStatus(url, '/trpc/contacts.list', a.cookie);
            await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - started))));
            return status;
          })}`,
      },
      {
        name: 'export',
        run: async () => {
          const started = performance.now();
          const res = await fetch(`${url}/api/contacts/export`, { headers: { cookie: a.cookie } });
          let bytes = 0;
          for await (const chunk of res.body!) bytes += (chunk as Uint8Array).length;
          return `HTTP ${res.status}, ${fmt(bytes / 1e6, 1)} MB in ${fmt((performance.now() - started) / 1000, 1)} s`;
        },
      },
      {
        name: 'import',
        run: async () => {
          const lines = ['First,Last,Email'];
          for (let i = 0; i < CONTACTS; i++) lines.push(`Im${i},Port${i},imp${i}@example.net`);
          const started = performance.now();
          const up = await aClient.post('/api/contacts/import', { fileName: 'big.csv', csv: lines.join('\n') });
          if (up.status !== 201) throw new Error(`import upload: ${up.status} ${JSON.stringify(up.body)}`);
          const start = await aClient.post(`/api/contacts/import/${up.body.id}/start`, {
            mapping: { First: 'firstName', Last: 'lastName', Email: 'email' },
          });
          if (start.status !== 200) throw new Error(`import start: ${start.status} ${JSON.stringify(start.body)}`);
          const done = await waitFor('import', async () => {
            const r = await aClient.get(`/api/contacts/import/${up.body.id}`);
            return ['completed', 'failed'].includes(r.body?.status) ? r.body : undefined;
          });
          return `${done.status}, ${CONTACTS.toLocaleString('en')} rows in ${fmt((performance.now() - started) / 1000, 1)} s`;
        },
      },
      {
        name: 'campaign',
        run: async () => {
          const created = await aClient.post('/api/email-campaigns', {
            name: 'Everyone',
            subject: 'Fairness',
            content: '<p>Hello {{firstName}}</p>',
            listIds: [listId],
          });
          if (created.status !== 201) throw new Error(`campaign: ${created.status} ${JSON.stringify(created.body)}`);
          const started = performance.now();
          const sent = await aClient.post(`/api/email-campaigns/${created.body.id}/send`, {});
          if (sent.status !== 200) throw new Error(`send: ${sent.status} ${JSON.stringify(sent.body)}`);
          const done = await waitFor('campaign', async () => {
            const r = await aClient.get(`/api/email-campaigns/${created.body.id}`);
            return ['sent', 'failed'].includes(r.body?.status) ? r.body : undefined;
          });
          return `${done.status}, ${smtp.count().toLocaleString('en')} messages in ${fmt((performance.now() - started) / 1000, 1)} s`;
        },
      },
    ];
    const only = process.env.BENCH_ATTACKS?.split(',');
    for (const attack of attacks) {
      if (only && !only.includes(attack.name)) continue;
      let note = '';
      const { result: times, peakMb } = await peakRss(app.child.pid!, async () => {
        const running = attack.run().then(
          (n) => {
            note = n;
          },
          (err: unknown) => {
            note = `FAILED: ${(err as Error).message}`;
            failed = true;
          },
        );
        return measureWhile(url, b, running);
      });
      rows.push({ name: attack.name, note, times, peakMb });
      console.log(`  ${attack.name}: ${note}`);
      await new Promise((r) => setTimeout(r, 2000)); // let the server settle between attacks
    }

    const base95 = pct(baseline, 0.95);
    console.log(`\nChurch B's ordinary requests (${ORDINARY.length} kinds in turn), ms:`);
    console.log(
      `${'phase'.padEnd(16)}${'n'.padStart(7)}${'p50'.padStart(9)}${'p95'.padStart(9)}${'× base'.padStart(9)}${'peak RSS MB'.padStart(14)}`,
    );
    console.log(
      `${'baseline'.padEnd(16)}${String(baseline.length).padStart(7)}${fmt(pct(baseline, 0.5), 1).padStart(9)}${fmt(base95, 1).padStart(9)}${''.padStart(9)}${fmt(idleMb).padStart(14)}`,
    );
    for (const r of rows) {
      const p95 = pct(r.times, 0.95);
      const ratio = p95 / base95;
      const ok = ratio <= TARGET_RATIO && r.peakMb < TARGET_RSS_MB;
      if (!ok) failed = true;
      console.log(
        `${r.name.padEnd(16)}${String(r.times.length).padStart(7)}${fmt(pct(r.times, 0.5), 1).padStart(9)}${fmt(p95, 1).padStart(9)}${fmt(ratio, 2).padStart(9)}${fmt(r.peakMb).padStart(14)}  ${ok ? 'ok' : 'MISSED'}`,
      );
    }
    console.log(
      `\ntargets: B's p95 ≤ ${TARGET_RATIO}× baseline and server RSS < ${TARGET_RSS_MB} MB during every attack`,
    );
  } finally {
    await app.stop();
    await smtp.close();
    await tdb.drop();
    await pgServer.stop();
  }
  if (failed) {
    console.log('\nA target was missed.');
    process.exitCode = 1;
  }
}

await main();
