/**
 * pnpm bench:showup — Show Up's public reads and the Stripe webhook under load.
 * 1. 1,000 projects across 100 churches: p50/p95 over HTTP of the public list (first page, a
 *    search, a category) and of one project's detail, as a visitor (no session). Target p95 < 30 ms.
 * 2. 50 prepared donations (through the stripe SDK against a local Stripe API), then 200 signed
 *    webhook deliveries at once (each payment's payment_intent.succeeded 4 times, shuffled): the
 *    project's total and supporter count must be exact.
 * Uses TEST_DATABASE_URL's server when set, else an embedded PostgreSQL.
 */
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import Stripe from 'stripe';
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import { ownerDb, sql } from '@lampstand/db';
import { loadConfig } from '../src/config.js';
import { createServer } from '../src/server.js';
import { startRuntime } from '../src/app-deps.js';
import { HttpClient, seedProjectGifts } from '../test/helpers/test-app.js';
import { projectTotals } from '@lampstand/api/server';
import { startFakeStripe } from '../test/helpers/fake-stripe.js';
import { percentile, timeRequests } from './lib/latency.js';

const CHURCHES = 100;
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);
const PAYMENTS = 50;
const DELIVERIES_EACH = 4;
const SECRET_KEY = 'sk_test_bench';
const WEBHOOK_SECRET = 'whsec_bench';
const CATEGORIES = ['community', 'education', 'construction', 'mission', 'outreach', 'worship', 'youth', 'other'];
const PLACES = ['Springfield', 'Riverside', 'Franklin', 'Greenville', 'Clinton', 'Madison', 'Salem', 'Fairview'];

async function measure(label: string, fn: (i: number) => Promise<{ status: number }>) {
  const times = await timeRequests(label, { warmUp: 20, rounds: ROUNDS }, fn);
  const p95 = percentile(times, 95);
  console.log(
    `${label.padEnd(46)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms   p95 ${p95.toFixed(1).padStart(6)} ms   max ${times[times.length - 1]!.toFixed(1).padStart(6)} ms   (${ROUNDS} requests)`,
  );
  return p95;
}

async function main() {
  const pgServer = await startTestServer();
  const tdb = await createTestDatabase(pgServer.serverUrl, pgServer.templateName);
  const stripeApi = await startFakeStripe({ secretKey: SECRET_KEY });
  const config = {
    // The bench's 50 gifts come from one address: above the public limit of 30 an hour.
    ...loadConfig({ NODE_ENV: 'test', DONATIONS_PER_ADDRESS_PER_HOUR: '1000' }),
    port: 0,
    host: '127.0.0.1',
    databaseUrl: tdb.url,
    logLevel: 'silent',
    stripeSecretKey: SECRET_KEY,
    stripeWebhookSecret: WEBHOOK_SECRET,
    stripeApiBaseUrl: stripeApi.url,
  };
  const runtime = await startRuntime(config, tdb.db, tdb.url, { work: false });
  const server = await createServer(config, runtime.deps);
  const url = await server.start();
  const db = tdb.db;
  let failed = false;
  try {
    // 1. Seed 100 churches with 10 projects each.
    const t0 = performance.now();
    const users = await db
      .insertInto('users')
      .values(
        Array.from({ length: CHURCHES }, (_, i) => ({
          username: `church${i}`,
          passwordHash: 'x',
          churchName: `Church ${i}`,
          email: `church${i}@example.org`,
        })),
      )
      .returning('id')
      .execute();
    const rows = Array.from({ length: PROJECTS }, (_, i) => ({
      userId: users[i % CHURCHES]!.id,
      title: `${PLACES[i % PLACES.length]} project ${i}`,
      shortDescription: `Help ${PLACES[i % PLACES.length]} with project number ${i}.`,
      description:
        `A longer description of project ${i}, what it is for and how the money will be used by the church. `.repeat(3),
      location: `${PLACES[i % PLACES.length]}, ST`,
      latitude: 30 + (i % 17),
      longitude: -120 + (i % 43),
      targetAmount: 1000 + (i % 50) * 100,
      category: CATEGORIES[i % CATEGORIES.length]!,
      tags: ['bench', `tag${i % 20}`],
      organizationName: `Church ${i % CHURCHES}`,
      contactEmail: `office${i % CHURCHES}@example.org`,
      startDate: '2026-11-01',
      endDate: i % 10 === 0 ? new Date(Date.now() + (i % 25) * 86400000).toISOString().slice(0, 10) : null,
      images: '[]',
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await db
        .insertInto('showUpProjects')
        .values(rows.slice(i, i + 500))
        .execute();
    }
    // Each project's supporters: (i % 40) completed $25 gifts in the ledger, as a gift made now is.
    const seeded = await db.selectFrom('showUpProjects').select('id').orderBy('id').execute();
    await seedProjectGifts(
      db,
      seeded.map((p, i) => ({ projectId: p.id, count: i % 40, cents: 2500 })),
    );
    await sql`analyze show_up_projects, funds, gifts, gift_lines`.execute(ownerDb(db));
    console.log(
      `seeded ${PROJECTS} projects across ${CHURCHES} churches in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
    );

    const visitor = new HttpClient(url);
    const someId = (
      await db.selectFrom('showUpProjects').select('id').orderBy('id').offset(500).limit(1).executeTakeFirstOrThrow()
    ).id;
    const p95s = [
      await measure('list, first page (GET /api/show-up/projects)', () => visitor.get('/api/show-up/projects')),
      await measure('list, search (?search=riverside)', () => visitor.get('/api/show-up/projects?search=riverside')),
      await measure('list, category (?category=youth), page 2', () =>
        visitor.get('/api/show-up/projects?category=youth&page=2'),
      ),
      await measure('list, nearest 5 (?lat&lng&pageSize=5)', () =>
        visitor.get('/api/show-up/projects?lat=39.8&lng=-89.6&pageSize=5'),
      ),
      await measure('detail (GET /api/show-up/projects/{id})', (i) =>
        visitor.get(`/api/show-up/projects/${someId + (i % 50)}`),
      ),
    ];
    const listOk = p95s.every((p) => p < 30);
    console.log(`\ntarget: p95 < 30 ms for the public list and detail — ${listOk ? 'met' : 'NOT met'}\n`);
    failed ||= !listOk;

    // 2. 200 concurrent webhook deliveries for 50 payments.
    const project = { id: someId, ...(await projectTotals(db, someId)) };
    const payments: { pi: string; cents: number }[] = [];
    for (let i = 0; i < PAYMENTS; i++) {
      const amount = 5 + i + (i % 3) * 0.33;
      const res = await visitor.post('/api/show-up/donations/prepare', {
        projectId: project.id,
        amount: Number(amount.toFixed(2)),
        isAnonymous: i % 2 === 0,
        donorName: `Donor ${i}`,
      });
      if (res.status !== 200) throw new Error(`prepare: HTTP ${res.status} ${res.text}`);
      payments.push({ pi: res.body.paymentIntentId, cents: Math.round(Number(amount.toFixed(2)) * 100) });
    }
    const signer = new Stripe('sk_test_signer_only');
    const deliveries = payments.flatMap((p) =>
      Array.from({ length: DELIVERIES_EACH }, () => {
        const payload = JSON.stringify({
          id: `evt_${crypto.createHash('sha1').update(p.pi).digest('hex').slice(0, 20)}`, // the same event, redelivered
          object: 'event',
          type: 'payment_intent.succeeded',
          created: Math.floor(Date.now() / 1000),
          livemode: false,
          data: {
            object: { id: p.pi, object: 'payment_intent', amount: p.cents, currency: 'usd', status: 'succeeded' },
          },
        });
        return { payload, signature: signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) };
      }),
    );
    for (let i = deliveries.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [deliveries[i], deliveries[j]] = [deliveries[j]!, deliveries[i]!];
    }
    const t1 = performance.now();
    const times: number[] = [];
    const results = await Promise.all(
      deliveries.map(async (d) => {
        const t = performance.now();
        const res = await fetch(`${url}/api/stripe/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': d.signature },
          body: d.payload,
        });
        times.push(performance.now() - t);
        return { status: res.status, body: (await res.json()) as { outcome: string } };
      }),
    );
    const wall = performance.now() - t1;
    times.sort((a, b) => a - b);
    const after = await projectTotals(db, project.id);
    const expectedCents = payments.reduce((s, p) => s + p.cents, 0);
    const raisedCents = Math.round((after.raisedAmount - project.raisedAmount) * 100);
    const counted = after.donationsCount - project.donationsCount;
    const outcomes = results.reduce<Record<string, number>>((acc, r) => {
      acc[`${r.status} ${r.body.outcome}`] = (acc[`${r.status} ${r.body.outcome}`] ?? 0) + 1;
      return acc;
    }, {});
    console.log(
      `${deliveries.length} webhook deliveries at once (${PAYMENTS} payments × ${DELIVERIES_EACH}, shuffled): ${wall.toFixed(0)} ms wall, ` +
        `p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms per delivery`,
    );
    console.log(`outcomes: ${JSON.stringify(outcomes)}`);
    const exact = raisedCents === expectedCents && counted === PAYMENTS;
    console.log(
      `project total +$${(raisedCents / 100).toFixed(2)} (expected +$${(expectedCents / 100).toFixed(2)}), supporters +${counted} (expected +${PAYMENTS}) — ${exact ? 'exact' : 'NOT exact'}`,
    );
    failed ||= !exact;
    console.log(failed ? '\nsome targets NOT met' : '\nall targets met');
  } finally {
    await server.stop();
    await runtime.close();
    await stripeApi.close();
    await tdb.drop();
    await pgServer.stop();
  }
  if (failed) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
