/**
 * pnpm bench:contacts — a church with 50,000 contacts.
 * Seeds them in a fresh database, then measures over HTTP (p50/p95 of the first page, a search by
 * partial name, a tab filter) and the time to import a 50,000-row CSV through the background job.
 * Uses TEST_DATABASE_URL's server when set, else an embedded PostgreSQL.
 */
import { performance } from 'node:perf_hooks';
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import { ownerDb, sql } from '@lampstand/db';
import { loadConfig } from '../src/config.js';
import { createServer } from '../src/server.js';
import { startRuntime } from '../src/app-deps.js';
import { HttpClient } from '../test/helpers/test-app.js';
import { percentile, timeRequests } from './lib/latency.js';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);

const FIRST = [
  'Mary',
  'John',
  'Grace',
  'David',
  'Sarah',
  'Peter',
  'Ruth',
  'Samuel',
  'Hannah',
  'James',
  'Esther',
  'Paul',
  'Lydia',
  'Mark',
  'Naomi',
  'Luke',
  'Martha',
  'Andrew',
  'Joanna',
  'Philip',
  'Priscilla',
  'Timothy',
  'Abigail',
  'Daniel',
  'Deborah',
  'Joseph',
  'Miriam',
  'Caleb',
  'Phoebe',
  'Nathan',
];
const LAST = [
  'Smith',
  'Jones',
  'Williams',
  'Brown',
  'Wilson',
  'Taylor',
  'Johnson',
  'White',
  'Martin',
  'Anderson',
  'Thompson',
  'Nguyen',
  'Thomas',
  'Walker',
  'Harris',
  'Lee',
  'Ryan',
  'Robinson',
  'Kelly',
  'King',
  'Davis',
  'Wright',
  'Evans',
  'Roberts',
  'Green',
  'Hall',
  'Wood',
  'Jackson',
  'Clarke',
  'Patel',
  'Campbell',
  'Mitchell',
  'Young',
  'Allen',
  'Scott',
  'Baker',
];
const pick = <T>(a: readonly T[], i: number) => a[i % a.length]!;

async function measure(label: string, fn: (i: number) => Promise<{ status: number }>) {
  const times = await timeRequests(label, { warmUp: 10, rounds: ROUNDS }, fn);
  const row = {
    label,
    p50: percentile(times, 50).toFixed(1),
    p95: percentile(times, 95).toFixed(1),
    max: times[times.length - 1]!.toFixed(1),
  };
  console.log(
    `${label.padEnd(44)} p50 ${row.p50.padStart(6)} ms   p95 ${row.p95.padStart(6)} ms   max ${row.max.padStart(6)} ms   (${ROUNDS} requests)`,
  );
  return row;
}

async function main() {
  const pgServer = await startTestServer();
  const tdb = await createTestDatabase(pgServer.serverUrl, pgServer.templateName);
  const config = {
    ...loadConfig({ NODE_ENV: 'test' }),
    port: 0,
    host: '127.0.0.1',
    databaseUrl: tdb.url,
    logLevel: 'silent',
  };
  const runtime = await startRuntime(config, tdb.db, tdb.url, { work: true, pollingIntervalSeconds: 0.5 });
  const server = await createServer(config, runtime.deps);
  const url = await server.start();
  try {
    const client = new HttpClient(url);
    await client.post('/api/register', {
      username: 'platform',
      password: 'bench-pass',
      churchName: 'Platform',
      email: 'p@example.org',
    });
    const church = new HttpClient(url);
    const reg = await church.post('/api/register', {
      username: 'bench',
      password: 'bench-pass',
      churchName: 'Bench Church',
      email: 'bench@example.org',
    });
    const tenantId = reg.body.id as number;

    let t = performance.now();
    for (let start = 0; start < CONTACTS; start += 5000) {
      const rows = Array.from({ length: Math.min(5000, CONTACTS - start) }, (_, k) => {
        const i = start + k;
        return {
          userId: tenantId,
          firstName: pick(FIRST, i * 7 + (i >> 5)),
          lastName: `${pick(LAST, i)}${i % 9 === 0 ? '-' + pick(LAST, i >> 3) : ''}`,
          email: `person${i}@example.org`,
          phone: `04${String(10000000 + i).slice(-8)}`,
          phoneE164: `+614${String(10000000 + i).slice(-8)}`,
          metadata: JSON.stringify({
            countryCode: '+61',
            isChurchMember: i % 3 === 0,
            isServiceStaff: i % 20 === 0,
            isBaptised: false,
            isSeeker: false,
          }),
        };
      });
      await tdb.db.insertInto('contacts').values(rows).execute();
    }
    await sql`analyze contacts`.execute(ownerDb(tdb.db));
    console.log(
      `seeded ${CONTACTS.toLocaleString('en-US')} contacts in ${((performance.now() - t) / 1000).toFixed(1)} s\n`,
    );

    const page = await measure('first page (GET /api/contacts/search)', () =>
      church.get('/api/contacts/search?page=1&pageSize=25'),
    );
    const partials = ['smi', 'grac', 'nguy', 'han', 'patel', 'tim', 'wrig', 'mir'];
    const search = await measure('search by partial name (?search=smi …)', (i) =>
      church.get(`/api/contacts/search?search=${pick(partials, i)}&page=1&pageSize=25`),
    );
    if (process.env.BENCH_VERBOSE) {
      for (const term of partials)
        await measure(`  search=${term}`, () => church.get(`/api/contacts/search?search=${term}&page=1&pageSize=25`));
    }
    await measure('tab filter (?tab=members)', () => church.get('/api/contacts/search?tab=members&page=1&pageSize=25'));
    await measure('tab filter (?tab=staff), page 10', () =>
      church.get('/api/contacts/search?tab=staff&page=10&pageSize=25'),
    );

    // Import a 50,000-row CSV: half new people, half matching existing ones by email.
    const lines = ['First Name,Last Name,Email,Phone,Church Member'];
    for (let i = 0; i < CONTACTS; i++) {
      const existing = i % 2 === 0;
      const n = existing ? i : CONTACTS + i;
      lines.push(
        `${pick(FIRST, n)},${pick(LAST, n + 3)},person${n}@example.org,04${String(20000000 + i).slice(-8)},${i % 4 === 0 ? 'yes' : 'no'}`,
      );
    }
    const csv = lines.join('\n');
    t = performance.now();
    const upload = await church.post('/api/contacts/import', { fileName: 'bench.csv', csv });
    if (upload.status !== 201) throw new Error(`upload: ${upload.status} ${upload.text}`);
    const started = await church.post(`/api/contacts/import/${upload.body.id}/start`, {
      mapping: upload.body.suggestedMapping,
    });
    if (started.status !== 200) throw new Error(`start: ${started.status} ${started.text}`);
    let status = started.body;
    while (status.status !== 'completed' && status.status !== 'failed') {
      await new Promise((r) => setTimeout(r, 250));
      status = (await church.get(`/api/contacts/import/${upload.body.id}`)).body;
    }
    const importSeconds = (performance.now() - t) / 1000;
    console.log(
      `\nimport of a ${CONTACTS.toLocaleString('en-US')}-row CSV (${(csv.length / 1024 / 1024).toFixed(1)} MiB): ${importSeconds.toFixed(1)} s ` +
        `(upload to completed; ${status.createdCount} created, ${status.updatedCount} updated, ${status.skipped.length} skipped, status ${status.status})`,
    );
    console.log('\ntargets: p95 < 50 ms for the page and the search; import < 60 s');
    const ok = Number(page.p95) < 50 && Number(search.p95) < 50 && importSeconds < 60 && status.status === 'completed';
    console.log(ok ? 'all targets met' : 'TARGET MISSED');
  } finally {
    await server.stop();
    await runtime.close();
    if (process.env.BENCH_KEEP) console.log(`kept database ${tdb.url}`);
    else await tdb.drop();
    await pgServer.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
