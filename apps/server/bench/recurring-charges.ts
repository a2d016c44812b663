/**
 * pnpm bench:recurring — the target: 1,000 recurring gifts due at the same moment all charged
 * once in < 30 s. Seeds one church with 1,000 active monthly schedules (each a saved card) due
 * today, then runs the 'giving-charge-due' job's own function (`chargeDueSchedules`) on a controlled
 * clock, twice at once as two workers would, with the `stripe` SDK against the local Stripe peer
 * the tests use (off-session PaymentIntents). Then checks each schedule was charged exactly once:
 * one completed gift for the date, one PaymentIntent request per schedule (one idempotency key
 * each), the next date a month on; a third run at the same moment charges nothing. Prints the time
 * and exits non-zero when a check fails or the target is missed. Uses TEST_DATABASE_URL's server
 * when set, else an embedded PostgreSQL. BENCH_SCHEDULES sets the size.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import { ownerDb, sql } from '@lampstand/db';
import { chargeDueSchedules, createStripePayments, type JobQueue } from '@lampstand/api/server';
import { DEFAULT_CARD_FEE } from '@lampstand/api/schemas/giving';
import { startFakeStripe } from '../test/helpers/fake-stripe.js';
import { seedGivingChurch } from './lib/giving-church.js';

const SCHEDULES = Number(process.env.BENCH_SCHEDULES ?? 1_000);
const TARGET_SECONDS = 30;
const SECRET_KEY = 'sk_test_bench_recurring';

async function main() {
  const pgServer = await startTestServer();
  const tdb = await createTestDatabase(pgServer.serverUrl, pgServer.templateName);
  const db = ownerDb(tdb.db);
  const stripe = await startFakeStripe({ secretKey: SECRET_KEY });
  try {
    const { userId, fundId } = await seedGivingChurch(db);
    // The controlled clock: every schedule is due today (UTC, the church's zone), at this moment.
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    await sql`
      insert into contacts (user_id, first_name, last_name, email)
      select ${userId}, 'Donor', 'Number ' || i, 'donor' || i || '@example.org'
      from generate_series(1, ${SCHEDULES}) i`.execute(db);
    await sql`
      insert into gift_schedules (user_id, contact_id, donor_name, donor_email, frequency, start_date, next_date,
                                  status, amount_cents, idempotency_key, manage_token, stripe_customer_id,
                                  stripe_payment_method_id)
      select c.user_id, c.id, 'Donor ' || c.last_name, c.email, 'monthly', ${today}::date, ${today}::date,
             'active', 2500 + (c.id % 7) * 100, 'bench-schedule-' || c.id, 'bench-manage-' || c.id,
             'cus_bench_' || c.id, 'pm_card_visa'
      from contacts c where c.user_id = ${userId}`.execute(db);
    await sql`
      insert into gift_schedule_lines (user_id, schedule_id, fund_id, amount_cents)
      select user_id, id, ${fundId}, amount_cents from gift_schedules where user_id = ${userId}`.execute(db);
    await sql`analyze`.execute(db);

    let notices = 0;
    const jobs: JobQueue = {
      send: () => {
        notices++;
        return Promise.resolve(null);
      },
      cancel: () => Promise.resolve(),
    };
    const deps = {
      db,
      jobs,
      cardFee: DEFAULT_CARD_FEE,
      payments: createStripePayments({
        secretKey: SECRET_KEY,
        webhookSecret: 'whsec_bench',
        publishableKey: null,
        apiBaseUrl: stripe.url,
        connect: false,
        platformFeePercent: 0,
      }),
    };

    const load = os.loadavg()[0]!;
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    // Two workers at once, as two processes running 'giving-charge-due' would.
    const runs = await Promise.all([chargeDueSchedules(deps, { now }), chargeDueSchedules(deps, { now })]);
    const seconds = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    const again = await chargeDueSchedules(deps, { now });

    const charged = runs.reduce((n, r) => n + r.charged, 0);
    const gifts = await sql<{ schedules: number; gifts: number; completed: number; advanced: number }>`
      select (select count(distinct schedule_id)::int from gifts where user_id = ${userId}) as schedules,
             (select count(*)::int from gifts where user_id = ${userId}) as gifts,
             (select count(*)::int from gifts where user_id = ${userId} and status = 'completed'
                and charge_date = ${today}::date) as completed,
             (select count(*)::int from gift_schedules where user_id = ${userId}
                and next_date = (${today}::date + interval '1 month')::date) as advanced`.execute(db);
    const g = gifts.rows[0]!;
    const intents = stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
    const keys = new Set(intents.map((r) => r.idempotencyKey));
    const perSchedule = new Set(intents.map((r) => r.form['metadata[scheduleId]']));

    console.log(
      `${SCHEDULES} recurring gifts due at once, charged by two workers in ${seconds.toFixed(1)} s (target < ${TARGET_SECONDS} s), ${((seconds * 1000) / SCHEDULES).toFixed(1)} ms a charge`,
    );
    console.log(
      `charged: ${charged} (${runs.map((r) => r.charged).join(' + ')}), failed ${runs.reduce((n, r) => n + r.failed, 0)}; a third run at the same moment charged ${again.charged}`,
    );
    console.log(
      `gifts: ${g.gifts} for ${g.schedules} schedules, ${g.completed} completed for ${today}; next date a month on: ${g.advanced}`,
    );
    console.log(
      `PaymentIntent requests: ${intents.length} (${keys.size} idempotency keys, ${perSchedule.size} schedules); notices queued: ${notices}`,
    );
    console.log(
      `CPU time of this process (the workers and the Stripe peer): ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s; load average ${load.toFixed(1)} at the start (${os.availableParallelism()} cores)`,
    );
    const once =
      charged === SCHEDULES &&
      again.charged === 0 &&
      g.gifts === SCHEDULES &&
      g.schedules === SCHEDULES &&
      g.completed === SCHEDULES &&
      g.advanced === SCHEDULES &&
      intents.length === SCHEDULES &&
      keys.size === SCHEDULES &&
      perSchedule.size === SCHEDULES;
    if (!once) console.log('NOT each charged exactly once');
    const ok = once && seconds < TARGET_SECONDS;
    console.log(ok ? 'OK' : 'MISSED');
    process.exitCode = ok ? 0 : 1;
  } finally {
    await stripe.close();
    await tdb.drop();
    await pgServer.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
