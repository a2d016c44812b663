import crypto from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, describe, expect, it } from 'vitest';
import { calendarDue, createEvent, inHours, MINUTE, register } from '../helpers/calendar.js';
import { startFakeStripe } from '../helpers/fake-stripe.js';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';

// Registration fees with Stripe keys: the SDK against the local Stripe peer, webhooks signed with
// the SDK's helper and sent to /api/stripe/webhook. The PaymentIntent names the registration; its
// success confirms a held registration, a success after the seat was gone is refunded through
// POST /v1/refunds; a cancellation refunds what staff chose under an idempotency key.

const SECRET_KEY = 'sk_test_calendar';
const WEBHOOK_SECRET = 'whsec_test_calendar';
const stripeApi = await startFakeStripe({ secretKey: SECRET_KEY });
afterAll(() => stripeApi.close());
const app = await startTestApp({
  stripeSecretKey: SECRET_KEY,
  stripeWebhookSecret: WEBHOOK_SECRET,
  stripePublishableKey: 'pk_test_calendar',
  stripeApiBaseUrl: stripeApi.url,
});
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const visitor = new HttpClient(app.url);
const signer = new Stripe('sk_test_signer_only');

async function deliver(type: string, object: Record<string, unknown>) {
  const payload = JSON.stringify({
    id: `evt_${crypto.randomBytes(10).toString('hex')}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object },
  });
  const signature = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  const res = await fetch(`${app.url}/api/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { outcome: string }).outcome;
}
const succeeded = (pi: string, amount: number) =>
  deliver('payment_intent.succeeded', {
    id: pi,
    object: 'payment_intent',
    amount,
    currency: 'usd',
    status: 'succeeded',
  });
const registration = async (id: number) => (await grace.client.get(`/api/registrations/${id}`)).body;

describe('registration fees through Stripe', () => {
  it('makes a PaymentIntent naming the registration, and confirms on its success', async () => {
    const e = await createEvent(grace.client, {
      title: 'Conference',
      times: [{ startsAt: inHours(100), capacity: 1 }],
      ticketTypes: [{ name: 'Adult', priceCents: 2500 }],
    });
    const before = stripeApi.requests.length;
    const a = await register(visitor, e, {}, ['Ann Lee']);
    expect(a.body.outcome).toBe('payment');
    expect(a.body.payment).toMatchObject({ mode: 'stripe', publishableKey: 'pk_test_calendar' });
    const sent = stripeApi.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      path: '/v1/payment_intents',
      form: { amount: '2500', currency: 'usd', 'metadata[registrationId]': String(a.body.registrationId) },
    });
    // The waitlisted never meet Stripe.
    const count = stripeApi.requests.length;
    expect((await register(visitor, e, {}, ['Bo Waits'])).body.outcome).toBe('waitlisted');
    expect(stripeApi.requests.length).toBe(count);

    expect(await succeeded(a.body.payment.intentId, 2500)).toBe('completed');
    expect(await registration(a.body.registrationId)).toMatchObject({
      status: 'confirmed',
      paymentStatus: 'completed',
    });
    expect(await succeeded(a.body.payment.intentId, 2500)).toBe('stale');

    // Cancelled with a partial refund: POST /v1/refunds with the amount and an idempotency key.
    const r = stripeApi.requests.length;
    const cancel = await grace.client.post(`/api/registrations/${a.body.registrationId}/cancel`, { refundCents: 1000 });
    expect(cancel.status, cancel.text).toBe(200);
    await expect.poll(() => registration(a.body.registrationId)).toMatchObject({ refundedCents: 1000 });
    const refund = stripeApi.requests.slice(r).find((x) => x.path === '/v1/refunds')!;
    expect(refund.form).toMatchObject({ payment_intent: a.body.payment.intentId, amount: '1000' });
    expect(refund.idempotencyKey).toBe(`registration-refund-${a.body.registrationId}-0`);
    // The seat went to the next person waiting.
    const waiting = (await grace.client.get(`/api/calendar/events/${e.id}/registrations?status=offered`)).body;
    expect(waiting.registrations.map((x: { name: string }) => x.name)).toEqual(['Bo Waits']);
  });

  it('refunds a payment that succeeds after the hold ran out and the seat was taken', async () => {
    const e = await createEvent(grace.client, {
      title: 'Workshop',
      times: [{ startsAt: inHours(100), capacity: 1 }],
      ticketTypes: [{ name: 'Adult', priceCents: 1200 }],
    });
    const a = await register(visitor, e, {}, ['Cy Late']);
    await calendarDue(app, new Date(Date.now() + 11 * MINUTE));
    const b = await register(visitor, e, {}, ['Di Fast']);
    expect(b.body.outcome).toBe('payment');
    const r = stripeApi.requests.length;
    expect(await succeeded(a.body.payment.intentId, 1200)).toBe('late_refund');
    await calendarDue(app, new Date(Date.now() + 12 * MINUTE));
    await expect
      .poll(() => registration(a.body.registrationId))
      .toMatchObject({ status: 'expired', refundedCents: 1200, paymentStatus: 'refunded' });
    const refund = stripeApi.requests.slice(r).find((x) => x.path === '/v1/refunds')!;
    expect(refund.form).toMatchObject({ payment_intent: a.body.payment.intentId, amount: '1200' });
    // Stripe's own charge.refunded afterwards changes nothing.
    expect(
      await deliver('charge.refunded', {
        id: 'ch_late',
        object: 'charge',
        amount: 1200,
        amount_refunded: 1200,
        refunded: true,
        currency: 'usd',
        payment_intent: a.body.payment.intentId,
      }),
    ).toBe('stale');
  });
});
