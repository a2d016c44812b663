/**
 * pnpm bench:registrations — the target: 1,000 people try to register in the first minute for 200
 * seats of a paid event (payments through the local Stripe peer): exactly 200 confirmed, 800
 * waitlisted, 0 oversold, 0 charged while waitlisted, p95 of the registration request < 500 ms, and
 * another church's p95 ≤ 2× its baseline meanwhile. Each person posts the public form at a random
 * moment of the minute; one given a payment then pays (the peer's PaymentIntent, then its signed
 * payment_intent.succeeded to /api/stripe/webhook, as Stripe sends it). Prints the figures and
 * exits non-zero when a check fails. Uses TEST_DATABASE_URL's server when set, else an embedded
 * PostgreSQL. BENCH_PEOPLE, BENCH_SEATS and BENCH_SECONDS set the size.
 */
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import Stripe from 'stripe';
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import { ownerDb, sql } from '@lampstand/db';
import { loadConfig } from '../src/config.js';
import { createServer } from '../src/server.js';
import { startRuntime } from '../src/app-deps.js';
import { HttpClient } from '../test/helpers/test-app.js';
import { startFakeStripe } from '../test/helpers/fake-stripe.js';
import { percentile } from './lib/latency.js';
import { startNeighbour } from './lib/neighbour.js';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 1000);
const SEATS = Number(process.env.BENCH_SEATS ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const TARGET_P95_MS = 500;
const SECRET_KEY = 'sk_test_bench_registrations';
const WEBHOOK_SECRET = 'whsec_bench_registrations';

async function main() {
  const pgServer = await startTestServer();
  const tdb = await createTestDatabase(pgServer.serverUrl, pgServer.templateName);
  const stripeApi = await startFakeStripe({ secretKey: SECRET_KEY });
  const config = {
    // Every person of the bench comes from one address: above the public limits.
    ...loadConfig({ NODE_ENV: 'test', DONATIONS_PER_ADDRESS_PER_HOUR: '100000' }),
    port: 0,
    host: '127.0.0.1',
    databaseUrl: tdb.url,
    logLevel: 'silent' as const,
    registrationsPerHour: 10_000,
    firstAccountIsAdmin: true,
    stripeSecretKey: SECRET_KEY,
    stripeWebhookSecret: WEBHOOK_SECRET,
    stripeApiBaseUrl: stripeApi.url,
  };
  const runtime = await startRuntime(config, tdb.db, tdb.url, { work: false });
  const server = await createServer(config, runtime.deps);
  const url = await server.start();
  const db = tdb.db;
  const signer = new Stripe('sk_test_signer_only');
  let failed = false;
  try {
    const staff = new HttpClient(url);
    await staff.post('/api/register', {
      username: 'platform',
      password: 'bench-pass',
      churchName: 'Platform',
      email: 'platform@example.org',
    });
    const church = new HttpClient(url);
    const reg = await church.post('/api/register', {
      username: 'grace',
      password: 'bench-pass',
      churchName: 'Grace',
      email: 'grace@example.org',
    });
    await sql`update users set email_verified_at = now() where id = ${reg.body.id as number}`.execute(db);
    const event = await church.post('/api/calendar/events', {
      title: 'Christmas concert',
      status: 'published',
      times: [{ startsAt: new Date(Date.now() + 30 * 86_400_000).toISOString(), capacity: SEATS }],
      ticketTypes: [{ name: 'Adult', priceCents: 1500 }],
    });
    if (event.status !== 201) throw new Error(`event: HTTP ${event.status} ${event.text}`);
    const eventId = event.body.id as number;
    const ticketTypeId = event.body.ticketTypes[0].id as number;
    const neighbour = await startNeighbour(url, db);
    await neighbour.baseline();

    const pay = async (intentId: string) => {
      const payload = JSON.stringify({
        id: `evt_${crypto.randomBytes(10).toString('hex')}`,
        object: 'event',
        type: 'payment_intent.succeeded',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        data: {
          object: { id: intentId, object: 'payment_intent', amount: 1500, currency: 'usd', status: 'succeeded' },
        },
      });
      const res = await fetch(`${url}/api/stripe/webhook`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
        },
        body: payload,
      });
      if (res.status !== 200) throw new Error(`webhook: HTTP ${res.status}`);
    };

    const times: number[] = [];
    const outcomes = new Map<string, number>();
    const probe = neighbour.during();
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: PEOPLE }, async (_, i) => {
        await new Promise((r) => setTimeout(r, Math.random() * SECONDS * 1000));
        const visitor = new HttpClient(url);
        const t = performance.now();
        const res = await visitor.post(`/api/public/calendar/events/${eventId}/register`, {
          registrant: { name: `Person ${i}`, email: `person${i}@example.org` },
          attendees: [{ name: `Person ${i}`, ticketTypeId }],
          idempotencyKey: `bench-registration-${i}`,
        });
        times.push(performance.now() - t);
        const outcome = res.status === 200 ? (res.body.outcome as string) : `HTTP ${res.status}`;
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        if (outcome === 'payment') await pay(res.body.payment.intentId as string);
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const fair = await probe.stop('the registrations');

    const counts = await sql<{ status: string; n: number; charged: number }>`
      select r.status, count(*)::int as n, count(*) filter (where g.status = 'completed')::int as charged
      from calendar_registrations r left join gifts g on g.id = r.gift_id
      where r.event_id = ${eventId} group by r.status`.execute(ownerDb(db));
    const by = new Map(counts.rows.map((r) => [r.status, r]));
    const seats = await sql<{ taken: number; capacity: number; holding: number }>`
      select t.seats_taken as taken, t.capacity,
             (select coalesce(sum(seats), 0)::int from calendar_registrations where time_id = t.id and seats_held) as holding
      from calendar_event_times t where t.event_id = ${eventId}`.execute(ownerDb(db));
    const s = seats.rows[0]!;
    const intents = stripeApi.requests.filter((r) => r.path === '/v1/payment_intents').length;
    const sorted = times.sort((a, b) => a - b);
    const p95 = percentile(sorted, 95);
    const confirmed = by.get('confirmed')?.n ?? 0;
    const waitlisted = by.get('waitlisted')?.n ?? 0;
    const chargedWaiting = by.get('waitlisted')?.charged ?? 0;
    console.log(
      `${PEOPLE} people registered over ${seconds.toFixed(1)} s for ${SEATS} seats: ${[...outcomes].map(([k, v]) => `${k} ${v}`).join(', ')}`,
    );
    console.log(
      `confirmed ${confirmed} (target ${SEATS}), waitlisted ${waitlisted} (target ${PEOPLE - SEATS}), seats taken ${s.taken} of ${s.capacity} (held by registrations: ${s.holding}), oversold ${Math.max(0, s.taken - s.capacity)}`,
    );
    console.log(`charged while waitlisted: ${chargedWaiting}; PaymentIntents made: ${intents}`);
    console.log(
      `registration request: p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (target < ${TARGET_P95_MS} ms), max ${sorted.at(-1)!.toFixed(1)} ms`,
    );
    failed =
      confirmed !== SEATS ||
      waitlisted !== PEOPLE - SEATS ||
      s.taken > s.capacity ||
      s.taken !== s.holding ||
      chargedWaiting !== 0 ||
      intents !== SEATS ||
      p95 >= TARGET_P95_MS ||
      !fair.met;
    console.log(failed ? 'FAILED: a check above missed its target' : 'all checks met');
  } finally {
    await server.stop();
    await runtime.close();
    await tdb.drop();
    await pgServer.stop();
    await stripeApi.close();
  }
  if (failed) process.exitCode = 1;
}

await main();
