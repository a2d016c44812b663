import crypto from 'node:crypto';
import Stripe from 'stripe';
import { sql } from '@lampstand/db';
import { afterAll, describe, expect, it } from 'vitest';
import { chargeDueSchedules } from '../helpers/giving.js';
import { startFakeStripe } from '../helpers/fake-stripe.js';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { giveHandle } from '../helpers/portal.js';

// Church gifts with Stripe keys: the SDK against the local Stripe peer,
// webhooks signed with the SDK's helper and sent to the existing /api/stripe/webhook route.

const SECRET_KEY = 'sk_test_giving';
const WEBHOOK_SECRET = 'whsec_test_giving';
const stripeApi = await startFakeStripe({ secretKey: SECRET_KEY });
afterAll(() => stripeApi.close());
const app = await startTestApp({
  stripeSecretKey: SECRET_KEY,
  stripeWebhookSecret: WEBHOOK_SECRET,
  stripePublishableKey: 'pk_test_giving',
  stripeApiBaseUrl: stripeApi.url,
});
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
await giveHandle(app.db, grace.user.id, 'grace-stripe');
const visitor = new HttpClient(app.url);
const signer = new Stripe('sk_test_signer_only');
const general = ((await grace.client.get('/api/funds')).body as { id: number }[])[0]!;
const missions = (await grace.client.post('/api/funds', { name: 'Missions' })).body as { id: number };
const deps = () => ({
  db: app.db,
  payments: app.deps.showUp.payments,
  cardFee: app.deps.showUp.cardFee,
  jobs: app.deps.jobs,
});

const evt = (type: string, object: Record<string, unknown>, id = `evt_${crypto.randomBytes(10).toString('hex')}`) => ({
  id,
  object: 'event',
  type,
  created: Math.floor(Date.now() / 1000),
  livemode: false,
  data: { object },
});
const succeeded = (pi: string, amount: number, id?: string) =>
  evt(
    'payment_intent.succeeded',
    { id: pi, object: 'payment_intent', amount, currency: 'usd', status: 'succeeded', customer: 'cus_1' },
    id,
  );
const refunded = (pi: string, amount: number) =>
  evt('charge.refunded', {
    id: `ch_${pi}`,
    object: 'charge',
    amount,
    amount_refunded: amount,
    refunded: true,
    currency: 'usd',
    payment_intent: pi,
  });
const dispute = (type: 'created' | 'closed', pi: string, amount: number, status = 'needs_response', id?: string) =>
  evt(
    `charge.dispute.${type}`,
    { id: `dp_${pi}`, object: 'dispute', amount, currency: 'usd', status, payment_intent: pi },
    id,
  );

async function deliver(body: unknown) {
  const payload = JSON.stringify(body);
  const signature = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  const res = await fetch(`${app.url}/api/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { outcome: string }).outcome;
}

let n = 0;
async function prepare(overrides: Record<string, unknown> = {}) {
  const res = await visitor.post('/api/giving/prepare', {
    handle: 'grace-stripe',
    lines: [
      { fundId: general.id, amountCents: 3000 },
      { fundId: missions.id, amountCents: 1000 },
    ],
    frequency: 'one_time',
    coverFees: false,
    donor: { name: 'Tabitha Dorcas', email: `tabitha${++n}@example.org` },
    ...overrides,
  });
  expect(res.status, res.text).toBe(200);
  return res.body as { giftId: number; scheduleId: number; intentId: string; totalCents: number };
}
const giftOf = async (id: number) =>
  (await app.db.selectFrom('gifts').selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as {
    status: string;
    disputeStatus: string | null;
    refundedCents: number;
  };
const eventsOf = async (giftId: number) =>
  (
    await app.db
      .selectFrom('events')
      .select(['type'])
      .where('userId', '=', grace.user.id)
      .where('type', 'like', 'donation.%')
      .where(sql<string>`payload->>'donationId'`, '=', String(giftId))
      .orderBy('id')
      .execute()
  ).map((e) => e.type);

describe('one-time gifts through Stripe', () => {
  it('makes a USD PaymentIntent in whole cents with the gift in its metadata and an idempotency key', async () => {
    const before = stripeApi.requests.length;
    const g = await prepare({ coverFees: true });
    const sent = stripeApi.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      path: '/v1/payment_intents',
      idempotencyKey: `gift-${g.giftId}`,
      form: {
        amount: '4151',
        currency: 'usd',
        'metadata[giftId]': String(g.giftId),
        receipt_email: 'tabitha1@example.org',
      },
    });
  });

  it('counts a payment once: the same event twice, then a second event for the same payment', async () => {
    const g = await prepare();
    const e = succeeded(g.intentId, 4000);
    expect(await deliver(e)).toBe('completed');
    expect(await deliver(e)).toBe('duplicate');
    expect(await deliver(succeeded(g.intentId, 4000))).toBe('stale');
    expect((await giftOf(g.giftId)).status).toBe('completed');
    expect(await eventsOf(g.giftId)).toEqual(['donation.succeeded']);
    expect(await deliver(succeeded(g.intentId, 9999))).toBe('amount_mismatch');
  });

  it('out of order: a refund before the success leaves the gift refunded and never counted', async () => {
    const g = await prepare();
    expect(await deliver(refunded(g.intentId, 4000))).toBe('refunded');
    expect(await deliver(succeeded(g.intentId, 4000))).toBe('stale');
    expect((await giftOf(g.giftId)).status).toBe('refunded');
    expect(await eventsOf(g.giftId)).toEqual(['donation.refunded']);
    const completed = await grace.client.get('/api/giving/gifts?status=completed');
    expect(completed.body.gifts.map((x: { id: number }) => x.id)).not.toContain(g.giftId);
  });

  it("a refund in part (Stripe's dashboard) stays in the ledger less the refund; the rest takes it off", async () => {
    const g = await prepare();
    await deliver(succeeded(g.intentId, 4000));
    const part = (refundedCents: number) =>
      evt('charge.refunded', {
        id: `ch_${g.intentId}`,
        object: 'charge',
        amount: 4000,
        amount_refunded: refundedCents,
        refunded: false,
        currency: 'usd',
        payment_intent: g.intentId,
      });
    expect(await deliver(part(1500))).toBe('partial_refund');
    expect(await giftOf(g.giftId)).toMatchObject({ status: 'completed', refundedCents: 1500 });
    expect(await deliver(part(1000))).toBe('stale');
    expect(await giftOf(g.giftId)).toMatchObject({ status: 'completed', refundedCents: 1500 });
    expect(await eventsOf(g.giftId)).toEqual(['donation.succeeded']);
    expect(await deliver(refunded(g.intentId, 4000))).toBe('refunded');
    expect(await giftOf(g.giftId)).toMatchObject({ status: 'refunded', refundedCents: 4000 });
    expect(await eventsOf(g.giftId)).toEqual(['donation.succeeded', 'donation.refunded']);
  });

  it('a disputed gift is off the totals until the dispute is won', async () => {
    const g = await prepare();
    await deliver(succeeded(g.intentId, 4000));
    const opened = dispute('created', g.intentId, 4000);
    expect(await deliver(opened)).toBe('disputed');
    expect(await deliver(opened)).toBe('duplicate');
    const during = await grace.client.get('/api/giving/gifts?status=completed');
    expect(during.body.gifts.map((x: { id: number }) => x.id)).not.toContain(g.giftId);
    expect((await grace.client.get('/api/giving/gifts?status=disputed')).body.gifts[0].id).toBe(g.giftId);
    expect(await deliver(dispute('closed', g.intentId, 4000, 'won'))).toBe('dispute_won');
    expect(await giftOf(g.giftId)).toMatchObject({ status: 'completed', disputeStatus: 'won' });
    expect(await eventsOf(g.giftId)).toEqual(['donation.succeeded', 'donation.disputed', 'donation.dispute_closed']);
  });

  it('a dispute closed (lost) before it was opened stays lost and off the totals', async () => {
    const g = await prepare();
    await deliver(succeeded(g.intentId, 4000));
    expect(await deliver(dispute('closed', g.intentId, 4000, 'lost'))).toBe('dispute_lost');
    expect(await deliver(dispute('created', g.intentId, 4000))).toBe('stale');
    expect(await giftOf(g.giftId)).toMatchObject({ status: 'disputed', disputeStatus: 'lost' });
  });
});

describe('recurring gifts: a saved card charged off-session by our scheduler', () => {
  it('saves the card, charges each date once, retries a decline after 1, 3 and 7 days, then marks it failing and tells staff', async () => {
    const before = stripeApi.requests.length;
    const p = await prepare({ frequency: 'monthly', donor: { name: 'Lois Grandmother', email: 'lois@example.org' } });
    const setup = stripeApi.requests.slice(before);
    expect(setup.map((r) => r.path)).toEqual(['/v1/customers', '/v1/setup_intents']);
    expect(setup[1]!.form).toMatchObject({ usage: 'off_session', 'metadata[scheduleId]': String(p.scheduleId) });
    const schedule = await app.db
      .selectFrom('giftSchedules')
      .selectAll()
      .where('id', '=', p.scheduleId)
      .executeTakeFirstOrThrow();
    const saved = evt('setup_intent.succeeded', {
      id: p.intentId,
      object: 'setup_intent',
      status: 'succeeded',
      customer: schedule.stripeCustomerId,
      payment_method: 'pm_card_visa',
    });
    expect(await deliver(saved)).toBe('schedule_active');
    expect(await deliver(saved)).toBe('duplicate');

    const start = new Date();
    const charges = () =>
      stripeApi.requests.filter(
        (r) => r.path === '/v1/payment_intents' && r.form['metadata[scheduleId]'] === String(p.scheduleId),
      );
    await chargeDueSchedules(deps(), { now: start });
    await chargeDueSchedules(deps(), { now: start });
    expect(charges()).toHaveLength(1);
    expect(charges()[0]).toMatchObject({
      idempotencyKey: `schedule-${p.scheduleId}-${schedule.nextDate}-pm_card_visa-attempt-0`,
      form: {
        amount: '4000',
        customer: schedule.stripeCustomerId,
        payment_method: 'pm_card_visa',
        off_session: 'true',
        confirm: 'true',
      },
    });

    stripeApi.declineCustomer(schedule.stripeCustomerId!);
    const day = 86_400_000;
    const month = new Date(start.getTime() + 32 * day);
    const at = (d: number) => new Date(month.getTime() + d * day + 60_000);
    await chargeDueSchedules(deps(), { now: month });
    let s = await app.db
      .selectFrom('giftSchedules')
      .selectAll()
      .where('id', '=', p.scheduleId)
      .executeTakeFirstOrThrow();
    expect(s).toMatchObject({ status: 'active', failedAttempts: 1, lastFailure: 'Your card was declined.' });
    expect(charges()).toHaveLength(2);
    // Before a retry is due nothing is charged; at 1, 3 and 7 days it is tried again.
    await chargeDueSchedules(deps(), { now: at(0.5) });
    expect(charges()).toHaveLength(2);
    await chargeDueSchedules(deps(), { now: at(1) });
    await chargeDueSchedules(deps(), { now: at(2) });
    expect(charges()).toHaveLength(3);
    await chargeDueSchedules(deps(), { now: at(3) });
    expect(charges()).toHaveLength(4);
    await chargeDueSchedules(deps(), { now: at(7) });
    await chargeDueSchedules(deps(), { now: at(8) });
    expect(charges()).toHaveLength(5);
    s = await app.db.selectFrom('giftSchedules').selectAll().where('id', '=', p.scheduleId).executeTakeFirstOrThrow();
    expect(s).toMatchObject({ status: 'failing', failedAttempts: 4 });
    // One gift for the date, failed; each attempt its own idempotency key.
    const gifts = await grace.client.get(`/api/giving/gifts?scheduleId=${p.scheduleId}`);
    expect(gifts.body.gifts.map((g: { status: string }) => g.status)).toEqual(['failed', 'completed']);
    expect(new Set(charges().map((c) => c.idempotencyKey)).size).toBe(5);
    const failing = await grace.client.get('/api/giving/recurring?status=failing');
    expect(failing.body.map((x: { id: number }) => x.id)).toContain(p.scheduleId);

    // The donor heard once that the card failed (with the link to update it); staff heard it is failing.
    const mail = async (to: string) =>
      app.db.selectFrom('outboxMessages').select(['subject', 'text']).where('toAddress', '=', to).execute();
    await expect.poll(async () => (await mail('lois@example.org')).length, { timeout: 10_000 }).toBe(1);
    const donorMail = (await mail('lois@example.org'))[0]!;
    expect(donorMail.subject).toBe('Your monthly gift to Grace Church did not go through');
    expect(donorMail.text).toMatch(/Update your card here: http\S+\/give\/manage\/[\w-]+/);
    await expect
      .poll(
        async () =>
          (await mail(grace.user.email)).some((m) => m.subject === 'A recurring gift is failing: Lois Grandmother'),
        {
          timeout: 10_000,
        },
      )
      .toBe(true);

    // The donor's link: the page, a new card saved, and the failed date charged on the next run.
    const token = /\/give\/manage\/([\w-]+)/.exec(donorMail.text ?? '')![1]!;
    const pageRes = await fetch(`${app.url}/give/manage/${token}`);
    expect(pageRes.status).toBe(200);
    const html = await pageRes.text();
    expect(html).toContain('Your monthly gift to Grace Church');
    expect(html).toContain('Your card was declined (Your card was declined.)');
    expect((await fetch(`${app.url}/give/manage/${'x'.repeat(32)}`)).status).toBe(404);
    const started = await visitor.post('/api/giving/update-card', { token });
    expect(started.status, started.text).toBe(200);
    expect(started.body.intentId).toMatch(/^seti_/);
    expect(
      await deliver(
        evt('setup_intent.succeeded', {
          id: started.body.intentId,
          object: 'setup_intent',
          status: 'succeeded',
          customer: schedule.stripeCustomerId,
          payment_method: 'pm_card_new',
        }),
      ),
    ).toBe('schedule_active');
    s = await app.db.selectFrom('giftSchedules').selectAll().where('id', '=', p.scheduleId).executeTakeFirstOrThrow();
    expect(s).toMatchObject({ status: 'active', failedAttempts: 0, stripePaymentMethodId: 'pm_card_new' });
    stripeApi.declineCustomer(schedule.stripeCustomerId!, false);
    await chargeDueSchedules(deps(), { now: at(9) });
    expect(charges()).toHaveLength(6);
    const after = await grace.client.get(`/api/giving/gifts?scheduleId=${p.scheduleId}`);
    expect(after.body.gifts.map((g: { status: string }) => g.status)).toEqual(['completed', 'completed']);
  });
});
