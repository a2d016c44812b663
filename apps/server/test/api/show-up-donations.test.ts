import crypto from 'node:crypto';
import { eventsSettled } from '@lampstand/api/server';
import Stripe from 'stripe';
import { afterAll, describe, expect, it } from 'vitest';
import { ownerDb, sql } from '@lampstand/db';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { startFakeStripe } from '../helpers/fake-stripe.js';
import { projectPayload } from '../helpers/show-up.js';
import { RECEIPT_SCRIPT } from '@lampstand/api/render/receipt-page';

const SECRET_KEY = 'sk_test_lampstand';
const WEBHOOK_SECRET = 'whsec_test_lampstand';
const stripeApi = await startFakeStripe({ secretKey: SECRET_KEY });
afterAll(() => stripeApi.close());

const app = await startTestApp({
  stripeSecretKey: SECRET_KEY,
  stripeWebhookSecret: WEBHOOK_SECRET,
  stripePublishableKey: 'pk_test_lampstand',
  stripeApiBaseUrl: stripeApi.url,
});
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
const visitor = new HttpClient(app.url);
const signer = new Stripe('sk_test_signer_only');

async function newProject(client = grace.client, overrides: Record<string, unknown> = {}) {
  const res = await client.post('/api/show-up/projects', projectPayload(overrides));
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; title: string };
}

function event(type: string, object: Record<string, unknown>, id = `evt_${crypto.randomBytes(10).toString('hex')}`) {
  return { id, object: 'event', type, created: Math.floor(Date.now() / 1000), livemode: false, data: { object } };
}
const succeeded = (pi: string, amount: number, id?: string, currency = 'usd') =>
  event(
    'payment_intent.succeeded',
    { id: pi, object: 'payment_intent', amount, currency, status: 'succeeded', customer: 'cus_123', metadata: {} },
    id,
  );
const failed = (pi: string, amount: number) =>
  event('payment_intent.payment_failed', {
    id: pi,
    object: 'payment_intent',
    amount,
    currency: 'usd',
    status: 'requires_payment_method',
    last_payment_error: { message: 'Your card was declined.' },
  });
const refunded = (pi: string, amount: number) =>
  event('charge.refunded', {
    id: `ch_${crypto.randomBytes(6).toString('hex')}`,
    object: 'charge',
    amount,
    amount_refunded: amount,
    refunded: true,
    currency: 'usd',
    payment_intent: pi,
  });

async function deliver(body: unknown, opts: { url?: string; secret?: string; signature?: string | null } = {}) {
  const payload = JSON.stringify(body);
  const signature =
    opts.signature === undefined
      ? signer.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? WEBHOOK_SECRET })
      : opts.signature;
  const res = await fetch(`${opts.url ?? app.url}/api/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'stripe-signature': signature }) },
    body: payload,
  });
  return { status: res.status, body: (await res.json()) as { outcome?: string; message?: string } };
}

async function prepare(projectId: number, overrides: Record<string, unknown> = {}, client = visitor) {
  const res = await client.post('/api/show-up/donations/prepare', {
    projectId,
    amount: 25,
    donorName: 'Ruth Moabite',
    donorEmail: 'ruth@example.org',
    message: 'For the roof',
    isAnonymous: false,
    ...overrides,
  });
  expect(res.status, res.text).toBe(200);
  return res.body as {
    donationId: number;
    paymentIntentId: string;
    clientSecret: string;
    amount: number;
    mode: string;
  };
}

async function totals(projectId: number) {
  const p = await visitor.get(`/api/show-up/projects/${projectId}`);
  return { raised: p.body.raisedAmount as number, count: p.body.donationsCount as number };
}

describe('POST /api/show-up/donations/prepare', () => {
  it('creates a pending donation and a USD PaymentIntent in whole cents with metadata and an idempotency key', async () => {
    const p = await newProject();
    const before = stripeApi.requests.length;
    const d = await prepare(p.id, { amount: 19.99, source: 'qr.12' });
    expect(d.clientSecret).toMatch(/^pi_\w+_secret_\w+$/);
    expect(d).toMatchObject({ amount: 19.99, mode: 'stripe' });
    const sent = stripeApi.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: 'POST',
      path: '/v1/payment_intents',
      idempotencyKey: `donation-${d.donationId}`,
      form: {
        amount: '1999',
        currency: 'usd',
        'automatic_payment_methods[enabled]': 'true',
        'metadata[projectId]': String(p.id),
        'metadata[donationId]': String(d.donationId),
        receipt_email: 'ruth@example.org',
      },
    });
    expect(sent[0]!.form).not.toHaveProperty('transfer_data[destination]');
    const row = await app.db.selectFrom('gifts').selectAll().where('id', '=', d.donationId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', amountCents: 1999, sourceKind: 'qr', sourceId: 12 });
  });

  it('a retried prepare with the same key gives the same donation and PaymentIntent', async () => {
    const p = await newProject();
    const key = `retry-${crypto.randomUUID()}`;
    const [a, b] = await Promise.all([prepare(p.id, { idempotencyKey: key }), prepare(p.id, { idempotencyKey: key })]);
    const c = await prepare(p.id, { idempotencyKey: key });
    expect(b.donationId).toBe(a.donationId);
    expect(c.clientSecret).toBe(a.clientSecret);
    const count = await app.db
      .selectFrom('gifts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('idempotencyKey', '=', key)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
    // The same key with another amount is not the same gift.
    const other = await visitor.post('/api/show-up/donations/prepare', {
      projectId: p.id,
      amount: 50,
      idempotencyKey: key,
    });
    expect(other.status).toBe(409);
  });

  it('anonymous gifts store and send neither name nor email', async () => {
    const p = await newProject();
    const before = stripeApi.requests.length;
    const d = await prepare(p.id, { isAnonymous: true });
    expect(stripeApi.requests.slice(before)[0]!.form).not.toHaveProperty('receipt_email');
    const row = await app.db.selectFrom('gifts').selectAll().where('id', '=', d.donationId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ donorName: null, donorEmail: null, isAnonymous: true });
  });

  it.each([
    [{ amount: undefined }, 'amount', 'Amount is required'],
    [{ amount: '' }, 'amount', 'Amount is required'],
    [{ amount: -5 }, 'amount', 'Amount must be a positive number'],
    [{ amount: 0 }, 'amount', 'Amount must be a positive number'],
    [{ amount: 'abc' }, 'amount', 'Amount must be a positive number'],
    [{ amount: 0.25 }, 'amount', 'The minimum donation is $0.50'],
    [{ amount: 10.123 }, 'amount', 'Amount can have at most 2 decimal places'],
    [{ amount: 1_000_000 }, 'amount', 'Amount must be less than $1,000,000'],
    [{ donorEmail: 'nope' }, 'donorEmail', 'Invalid email address'],
    [{ projectId: 'x' }, 'projectId', 'Project ID must be a number'],
  ])('refuses %j with 400 naming %s', async (overrides, field, message) => {
    const p = await newProject();
    const res = await visitor.post('/api/show-up/donations/prepare', {
      projectId: p.id,
      amount: 25,
      ...overrides,
    });
    expect(res.status).toBe(400);
    expect(res.body.issues).toContainEqual({ path: field, message });
  });

  it('ignores a malformed source instead of refusing the gift; 404 for an unknown project', async () => {
    const p = await newProject();
    const d = await prepare(p.id, { source: 'evil.<script>' });
    const row = await app.db
      .selectFrom('gifts')
      .select(['sourceKind'])
      .where('id', '=', d.donationId)
      .executeTakeFirstOrThrow();
    expect(row.sourceKind).toBeNull();
    expect((await visitor.post('/api/show-up/donations/prepare', { projectId: 999999, amount: 25 })).status).toBe(404);
  });
});

describe('POST /api/stripe/webhook', () => {
  it('refuses a bad or missing signature with 400 and changes nothing', async () => {
    const p = await newProject();
    const d = await prepare(p.id);
    const e = succeeded(d.paymentIntentId, 2500);
    expect((await deliver(e, { secret: 'whsec_wrong' })).status).toBe(400);
    expect((await deliver(e, { signature: null })).status).toBe(400);
    expect((await deliver(e, { signature: 't=1,v1=deadbeef' })).status).toBe(400);
    expect(await totals(p.id)).toEqual({ raised: 0, count: 0 });
    const seen = await app.db
      .selectFrom('stripeWebhookEvents')
      .select('eventId')
      .where('eventId', '=', e.id)
      .executeTakeFirst();
    expect(seen).toBeUndefined();
  });

  it('payment_intent.succeeded completes the gift once, adds it to the totals and emails a receipt', async () => {
    const p = await newProject();
    const d = await prepare(p.id, { amount: 40.5 });
    const res = await deliver(succeeded(d.paymentIntentId, 4050));
    expect(res).toEqual({ status: 200, body: { received: true, outcome: 'completed' } });
    expect(await totals(p.id)).toEqual({ raised: 40.5, count: 1 });

    const info = await visitor.get(`/api/show-up/donations/by-payment/${d.paymentIntentId}`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      amount: 40.5,
      donorName: 'Ruth Moabite',
      isAnonymous: false,
      projectId: p.id,
      status: 'completed',
    });
    expect(info.body.receiptUrl).toMatch(/\/show-up\/receipts\/[\w-]+$/);
    expect(info.text).not.toContain('ruth@example.org');

    // The receipt is a job of its own: it arrives shortly after the webhook answered.
    const receipts = () =>
      app.db
        .selectFrom('outboxMessages')
        .selectAll()
        .where('toAddress', '=', 'ruth@example.org')
        .where('subject', 'like', '%40.50%')
        .execute();
    await expect.poll(async () => (await receipts()).length, { timeout: 20_000 }).toBe(1);
    const mail = await receipts();
    expect(mail[0]!.text).toContain('Grace Church');
    expect(mail[0]!.text).toContain('No goods or services were provided in exchange for this contribution.');
    expect(mail[0]!.text).toContain(p.title);
    expect(mail[0]!.text).toContain(info.body.receiptUrl);

    const receipt = await fetch(info.body.receiptUrl.replace(/^https?:\/\/[^/]+/, app.url));
    expect(receipt.status).toBe(200);
    const html = await receipt.text();
    expect(html).toContain('$40.50');
    expect(html).toContain('No goods or services were provided in exchange for this contribution.');
    // Print works under the CSP (script-src-attr 'none'): no inline handler, a script allowed by its hash.
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).toContain('<button type="button" id="print">Print</button>');
    expect(html).toContain(`<script>${RECEIPT_SCRIPT}</script>`);
    const hash = `'sha256-${crypto.createHash('sha256').update(RECEIPT_SCRIPT).digest('base64')}'`;
    expect(receipt.headers.get('content-security-policy')).toMatch(/script-src [^;]*'self'/);
    expect(/script-src ([^;]*)/.exec(receipt.headers.get('content-security-policy') ?? '')?.[1]).toContain(hash);
    expect((await fetch(`${app.url}/show-up/receipts/not-a-real-token-at-all`)).status).toBe(404);
  });

  it('the same event delivered 10 times at once, and a second event for the same payment, count once', async () => {
    const p = await newProject();
    const d = await prepare(p.id);
    const e = succeeded(d.paymentIntentId, 2500);
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () => deliver(e)),
      ...Array.from({ length: 5 }, () => deliver(succeeded(d.paymentIntentId, 2500))),
    ]);
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.outcome === 'completed')).toHaveLength(1);
    expect(await totals(p.id)).toEqual({ raised: 25, count: 1 });
    // One receipt job was queued (by the one completing transaction), so one receipt.
    const mails = () =>
      app.db.selectFrom('outboxMessages').select('id').where('subject', 'like', `%${p.title}`).execute();
    await expect.poll(async () => (await mails()).length, { timeout: 20_000 }).toBe(1);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pgboss.job
      where name = 'donation-receipt' and data->>'donationId' = ${String(d.donationId)}`.execute(ownerDb(app.db));
    expect(rows[0]!.n).toBe(1);
  });

  it('a refund takes the gift off the total; events out of order never move a donation backwards', async () => {
    const p = await newProject();
    const d = await prepare(p.id, { amount: 100 });
    await deliver(succeeded(d.paymentIntentId, 10000));
    expect(await totals(p.id)).toEqual({ raised: 100, count: 1 });
    expect((await deliver(failed(d.paymentIntentId, 10000))).body.outcome).toBe('stale');
    expect((await deliver(refunded(d.paymentIntentId, 10000))).body.outcome).toBe('refunded');
    expect(await totals(p.id)).toEqual({ raised: 0, count: 0 });
    // A late succeeded (a different event id) after the refund changes nothing.
    expect((await deliver(succeeded(d.paymentIntentId, 10000))).body.outcome).toBe('stale');
    expect(await totals(p.id)).toEqual({ raised: 0, count: 0 });

    // Refund first, then the success: never counted.
    const d2 = await prepare(p.id, { amount: 30 });
    expect((await deliver(refunded(d2.paymentIntentId, 3000))).body.outcome).toBe('refunded');
    expect((await deliver(succeeded(d2.paymentIntentId, 3000))).body.outcome).toBe('stale');
    expect(await totals(p.id)).toEqual({ raised: 0, count: 0 });
  });

  // A project gift is a gift of the ledger, so a dispute moves the project's total as
  // it moves any gift's (before, a Show Up dispute was 'ignored' and the total kept the money).
  it("a dispute takes the gift off the project's total; a won dispute puts it back, a lost one keeps it off", async () => {
    const dispute = (type: 'created' | 'closed', pi: string, status: string) =>
      event(`charge.dispute.${type}`, {
        id: `dp_${crypto.randomBytes(6).toString('hex')}`,
        object: 'dispute',
        amount: 4000,
        currency: 'usd',
        status,
        payment_intent: pi,
      });
    const p = await newProject();
    const won = await prepare(p.id, { amount: 40 });
    const lost = await prepare(p.id, { amount: 40 });
    await deliver(succeeded(won.paymentIntentId, 4000));
    await deliver(succeeded(lost.paymentIntentId, 4000));
    expect(await totals(p.id)).toEqual({ raised: 80, count: 2 });
    expect((await deliver(dispute('created', won.paymentIntentId, 'needs_response'))).body.outcome).toBe('disputed');
    expect((await deliver(dispute('created', lost.paymentIntentId, 'needs_response'))).body.outcome).toBe('disputed');
    expect(await totals(p.id)).toEqual({ raised: 0, count: 0 });
    expect((await deliver(dispute('closed', won.paymentIntentId, 'won'))).body.outcome).toBe('dispute_won');
    expect((await deliver(dispute('closed', lost.paymentIntentId, 'lost'))).body.outcome).toBe('dispute_lost');
    expect(await totals(p.id)).toEqual({ raised: 40, count: 1 });
    const report = await grace.client.get(`/api/show-up/projects/${p.id}/donations/report`);
    expect(report.body.totalCompleted).toBe(40);
    expect(report.body.donations.map((d: { status: string }) => d.status).sort()).toEqual(['completed', 'disputed']);
    await eventsSettled(app.db);
    const log = await grace.client.get('/api/events?types=donation.disputed,donation.dispute_closed');
    const mine = (log.body.events as { type: string; data: { project?: { id: number } } }[]).filter(
      (e) => e.data.project?.id === p.id,
    );
    expect(mine.map((e) => e.type).sort()).toEqual([
      'donation.dispute_closed',
      'donation.dispute_closed',
      'donation.disputed',
      'donation.disputed',
    ]);
  });

  it('a failure records the reason; a later success still completes the gift', async () => {
    const p = await newProject();
    const d = await prepare(p.id);
    expect((await deliver(failed(d.paymentIntentId, 2500))).body.outcome).toBe('failed');
    const row = await app.db
      .selectFrom('gifts')
      .select(['status', 'failureReason'])
      .where('id', '=', d.donationId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'failed', failureReason: 'Your card was declined.' });
    expect((await deliver(succeeded(d.paymentIntentId, 2500))).body.outcome).toBe('completed');
    expect(await totals(p.id)).toEqual({ raised: 25, count: 1 });
  });

  it("records each outcome in the church's log, on the donor's contact when the church has one", async () => {
    // An address no earlier gift used: a completed gift makes its donor a contact, and
    // this one is the church's own contact first.
    const ruth = await grace.client.post('/api/contacts', {
      firstName: 'Ruth',
      lastName: 'Moabite',
      email: 'Ruth.Log@Example.org',
      phone: '0412 345 678',
    });
    expect(ruth.status, ruth.text).toBe(201);
    const p = await newProject();
    const d = await prepare(p.id, { amount: 50, donorEmail: 'ruth.log@example.org' });
    await deliver(failed(d.paymentIntentId, 5000));
    await deliver(succeeded(d.paymentIntentId, 5000));
    await deliver(refunded(d.paymentIntentId, 5000));
    await eventsSettled(app.db);
    const log = await grace.client.get(`/api/events?types=donation.succeeded,donation.failed,donation.refunded`);
    const mine = (log.body.events as { type: string; contactId: number; actor: { kind: string }; data: any }[]).filter(
      (e) => e.data.donationId === d.donationId,
    );
    expect(mine.map((e) => [e.type, e.contactId, e.actor.kind])).toEqual([
      ['donation.failed', ruth.body.id, 'public'],
      ['donation.succeeded', ruth.body.id, 'public'],
      ['donation.refunded', ruth.body.id, 'system'],
    ]);
    // The one builder of donation.* events: a project gift is a gift with its project.
    const fund = (await grace.client.get('/api/funds?status=all')).body.find(
      (f: { name: string }) => f.name === p.title,
    );
    expect(mine[1]!.data).toEqual({
      person: { name: 'Ruth Moabite', email: 'Ruth.Log@Example.org', phone: '0412 345 678' },
      project: { id: p.id, name: p.title },
      gift: { id: d.donationId, frequency: 'one_time', scheduleId: null },
      funds: [{ fund: { id: fund.id, name: p.title }, amountCents: 5000 }],
      donationId: d.donationId,
      amountCents: 5000,
      currency: 'usd',
      source: null,
    });
    expect(mine[0]!.data.reason).toBe('Your card was declined.');
    // Another church's log has none of it.
    await eventsSettled(app.db);
    const other = await hope.client.get('/api/events?types=donation.succeeded');
    expect(other.body.events).toEqual([]);
  });

  it('refuses an amount or currency that does not match the prepared donation', async () => {
    const p = await newProject();
    const d = await prepare(p.id);
    expect((await deliver(succeeded(d.paymentIntentId, 99))).body.outcome).toBe('amount_mismatch');
    expect((await deliver(succeeded(d.paymentIntentId, 2500, undefined, 'eur'))).body.outcome).toBe('amount_mismatch');
    expect(await totals(p.id)).toEqual({ raised: 0, count: 0 });
    const row = await app.db
      .selectFrom('gifts')
      .select('status')
      .where('id', '=', d.donationId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
  });

  it('answers 200 to events it does not handle, and to payments it does not know', async () => {
    expect((await deliver(event('customer.created', { id: 'cus_1', object: 'customer' }))).body.outcome).toBe(
      'ignored',
    );
    expect((await deliver(succeeded('pi_unknown', 100))).body.outcome).toBe('unknown_payment');
  });

  it('demo completion is refused when Stripe keys are set', async () => {
    const p = await newProject();
    const d = await prepare(p.id);
    const res = await visitor.post('/api/show-up/donations/demo-complete', {
      paymentIntent: d.paymentIntentId,
      clientSecret: d.clientSecret,
    });
    expect(res.status).toBe(403);
  });
});

describe('GET /api/show-up/donations/by-payment/{paymentIntent}', () => {
  it('hides the name of an anonymous gift and has no receipt before completion; 404 unknown; 400 malformed', async () => {
    const p = await newProject();
    const d = await prepare(p.id, { isAnonymous: true });
    const res = await visitor.get(`/api/show-up/donations/by-payment/${d.paymentIntentId}`);
    expect(res.body).toMatchObject({ donorName: null, isAnonymous: true, receiptUrl: null, status: 'pending' });
    expect((await visitor.get('/api/show-up/donations/by-payment/pi_nothing')).status).toBe(404);
    expect((await visitor.get('/api/show-up/donations/by-payment/xyz')).status).toBe(400);
  });
});

describe("the owner's Donations tab", () => {
  it('lists every gift with status and source, sums where gifts came from, exports CSV; others 403, visitors 401', async () => {
    const p = await newProject();
    const campaign = await app.db
      .insertInto('emailCampaigns')
      .values({ userId: grace.user.id, name: 'Advent appeal' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const qr = (await grace.client.post('/api/qr-codes', { name: 'Lobby banner', url: 'https://example.org/' })).body;
    const link = (
      await grace.client.post('/api/qr-codes', { name: 'Bulletin link', url: 'https://example.org/', isShortUrl: true })
    ).body;
    const page = (await grace.client.post('/api/landing-pages', { name: 'Harvest appeal', slug: `harvest-${p.id}` }))
      .body;
    const theirs = (await hope.client.post('/api/qr-codes', { name: 'Not yours', url: 'https://example.org/' })).body;
    const a = await prepare(p.id, { amount: 50, source: `qr.${qr.id}` });
    const b = await prepare(p.id, { amount: 20, source: `qr.${qr.id}` });
    const c = await prepare(p.id, { amount: 15, source: `email.${campaign.id}`, isAnonymous: true });
    await prepare(p.id, { amount: 99, source: `qr.${qr.id}` }); // never paid
    const e = await prepare(p.id, { amount: 5, source: `link.${link.id}` });
    const f = await prepare(p.id, { amount: 4, source: `page.${page.id}` });
    const g = await prepare(p.id, { amount: 3, source: `qr.${theirs.id}` }); // another church's code: never named here
    for (const [d, cents] of [
      [a, 5000],
      [b, 2000],
      [c, 1500],
      [e, 500],
      [f, 400],
      [g, 300],
    ] as const)
      await deliver(succeeded(d.paymentIntentId, cents));

    const res = await grace.client.get(`/api/show-up/projects/${p.id}/donations/report`);
    expect(res.status).toBe(200);
    expect(res.body.donations).toHaveLength(7);
    expect(res.body.totalCompleted).toBe(97);
    expect(res.body.sources).toEqual([
      { source: { kind: 'qr', id: qr.id, label: 'QR code: Lobby banner' }, total: 70, count: 2 },
      { source: { kind: 'email', id: campaign.id, label: 'Email: Advent appeal' }, total: 15, count: 1 },
      {
        source: { kind: 'link', id: link.id, label: `Short link: /s/${link.shortCode} (Bulletin link)` },
        total: 5,
        count: 1,
      },
      { source: { kind: 'page', id: page.id, label: 'Landing page: Harvest appeal' }, total: 4, count: 1 },
      { source: { kind: 'qr', id: theirs.id, label: `QR code #${theirs.id} (deleted)` }, total: 3, count: 1 },
    ]);
    const anon = res.body.donations.find((d: { id: number }) => d.id === c.donationId);
    expect(anon).toMatchObject({ donorName: 'Anonymous', donorEmail: null, status: 'completed' });

    const csv = await grace.client.get(`/api/show-up/projects/${p.id}/donations/export`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.text.split('\n')[0]).toBe('Date,Amount (USD),Donor,Email,Status,Source,Message');
    expect(csv.text).toContain('50.00,Ruth Moabite,ruth@example.org,completed,QR code: Lobby banner');
    expect(csv.text).toContain('Anonymous,,completed,Email: Advent appeal');

    expect((await hope.client.get(`/api/show-up/projects/${p.id}/donations/report`)).status).toBe(403);
    expect((await hope.client.get(`/api/show-up/projects/${p.id}/donations/export`)).status).toBe(403);
    expect((await visitor.get(`/api/show-up/projects/${p.id}/donations/report`)).status).toBe(401);
  });

  it('the export guards formulas in what donors typed and writes dates as ISO 8601', async () => {
    const p = await newProject();
    const name = "-1+1+cmd|' /C calc'!A0";
    const d = await prepare(p.id, { donorName: name, message: '=HYPERLINK("http://evil.example")', amount: 12 });
    await deliver(succeeded(d.paymentIntentId, 1200));
    const csv = await grace.client.get(`/api/show-up/projects/${p.id}/donations/export`);
    expect(csv.status).toBe(200);
    const row = csv.text.split('\n')[1]!;
    const date = row.slice(0, row.indexOf(','));
    expect(date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const stored = await app.db
      .selectFrom('gifts')
      .select('createdAt')
      .where('id', '=', d.donationId)
      .executeTakeFirstOrThrow();
    expect(date).toBe(stored.createdAt.toISOString());
    expect(row).toContain(`12.00,'${name},ruth@example.org,completed,Direct,"'=HYPERLINK(""http://evil.example"")"`);
  });
});

describe('GET /api/show-up/config', () => {
  it('serves the publishable key and the map tiles; never the secret key', async () => {
    const res = await visitor.get('/api/show-up/config');
    expect(res.body).toMatchObject({
      giving: { mode: 'stripe', publishableKey: 'pk_test_lampstand', available: true, message: null },
    });
    expect(res.body.mapTileUrl).toContain('{z}');
    expect(res.text).not.toContain(SECRET_KEY);
    expect(res.text).not.toContain(WEBHOOK_SECRET);
  });
});

describe('Stripe Connect (a Stripe account per church)', async () => {
  const connectApp = await startTestApp({
    stripeSecretKey: SECRET_KEY,
    stripeWebhookSecret: WEBHOOK_SECRET,
    stripeApiBaseUrl: stripeApi.url,
    stripeConnect: true,
    platformFeePercent: 2.5,
  });
  await registerChurch(connectApp.url, 'Platform');
  const church = await registerChurch(connectApp.url, 'Connected Church');
  const guest = new HttpClient(connectApp.url);

  it('refuses gifts until the church is ready, then makes destination charges with the platform fee', async () => {
    const created = await church.client.post('/api/show-up/projects', projectPayload());
    const projectId = created.body.id as number;
    let cfg = await guest.get(`/api/show-up/config?projectId=${projectId}`);
    expect(cfg.body.giving).toMatchObject({
      available: false,
      message: 'Online giving is not set up yet for this church.',
    });
    const refused = await guest.post('/api/show-up/donations/prepare', { projectId, amount: 25 });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Online giving is not set up yet for this church.');

    expect((await church.client.get('/api/giving')).body).toMatchObject({ connect: true, status: 'not_connected' });
    const link = await church.client.post('/api/giving/connect', {});
    expect(link.status).toBe(200);
    expect(link.body.url).toMatch(/^https:\/\/connect\.stripe\.test\/setup\/e\/acct_/);
    const status = await church.client.get('/api/giving');
    expect(status.body).toMatchObject({ status: 'pending' });
    const again = await church.client.post('/api/giving/connect', {}); // resumes the same account
    expect(again.body.url).toBe(link.body.url);

    stripeApi.completeOnboarding(status.body.accountId);
    expect((await church.client.post('/api/giving/refresh', {})).body.status).toBe('ready');
    cfg = await guest.get(`/api/show-up/config?projectId=${projectId}`);
    expect(cfg.body.giving.available).toBe(true);

    const before = stripeApi.requests.length;
    const res = await guest.post('/api/show-up/donations/prepare', { projectId, amount: 25 });
    expect(res.status, res.text).toBe(200);
    const pi = stripeApi.requests.slice(before).find((r) => r.path === '/v1/payment_intents')!;
    expect(pi.form).toMatchObject({
      amount: '2500',
      'transfer_data[destination]': status.body.accountId,
      application_fee_amount: '63',
    });
  });

  it('account.updated events move the church to ready or back', async () => {
    const other = await registerChurch(connectApp.url, 'Another Church');
    await other.client.post('/api/giving/connect', {});
    const { accountId } = (await other.client.get('/api/giving')).body;
    const res = await deliver(
      event('account.updated', { id: accountId, object: 'account', charges_enabled: true, details_submitted: true }),
      { url: connectApp.url },
    );
    expect(res.body.outcome).toBe('account_updated');
    expect((await other.client.get('/api/giving')).body.status).toBe('ready');
  });

  it('needs sign-in for the church side', async () => {
    expect((await guest.get('/api/giving')).status).toBe(401);
    expect((await guest.post('/api/giving/connect', {})).status).toBe(401);
  });
});

// One app in demo mode (no Stripe keys, not production) for the two groups below, each with a
// church of its own.
const demoApp = await startTestApp();
await registerChurch(demoApp.url, 'Platform');

describe('demo mode (no Stripe keys, not production)', async () => {
  const church = await registerChurch(demoApp.url, 'Demo Church');
  const guest = new HttpClient(demoApp.url);

  it('completes a gift through a locally signed event and the same webhook handler', async () => {
    const created = await church.client.post('/api/show-up/projects', projectPayload());
    const projectId = created.body.id as number;
    const cfg = await guest.get(`/api/show-up/config?projectId=${projectId}`);
    expect(cfg.body.giving).toMatchObject({ mode: 'demo', publishableKey: null, available: true });
    const prep = await guest.post('/api/show-up/donations/prepare', { projectId, amount: 25, isAnonymous: true });
    expect(prep.status).toBe(200);
    expect(prep.body.mode).toBe('demo');
    const wrong = await guest.post('/api/show-up/donations/demo-complete', {
      paymentIntent: prep.body.paymentIntentId,
      clientSecret: 'pi_wrong_secret_x',
    });
    expect(wrong.status).toBe(404);
    const ok = await guest.post('/api/show-up/donations/demo-complete', {
      paymentIntent: prep.body.paymentIntentId,
      clientSecret: prep.body.clientSecret,
    });
    expect(ok.status, ok.text).toBe(200);
    const project = await guest.get(`/api/show-up/projects/${projectId}`);
    expect(project.body).toMatchObject({ raisedAmount: 25, donationsCount: 1 });
    const supporters = await guest.get(`/api/show-up/projects/${projectId}/donations`);
    expect(supporters.body).toMatchObject([{ donorName: 'Anonymous', amount: 25 }]);
    const event = await demoApp.db
      .selectFrom('stripeWebhookEvents')
      .selectAll()
      .where('paymentIntentId', '=', prep.body.paymentIntentId)
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({ type: 'payment_intent.succeeded', outcome: 'completed' });
    // An event signed with anything but the local secret is refused.
    const forged = await deliver(succeeded(prep.body.paymentIntentId, 2500), { url: demoApp.url });
    expect(forged.status).toBe(400);
  });
});

describe("a donor's message on the public project page", async () => {
  const church = await registerChurch(demoApp.url, 'Message Church');
  const guest = new HttpClient(demoApp.url);

  async function gift(projectId: number, body: Record<string, unknown>) {
    const prep = await guest.post('/api/show-up/donations/prepare', { projectId, amount: 10, ...body });
    expect(prep.status, prep.text).toBe(200);
    const ok = await guest.post('/api/show-up/donations/demo-complete', {
      paymentIntent: prep.body.paymentIntentId,
      clientSecret: prep.body.clientSecret,
    });
    expect(ok.status, ok.text).toBe(200);
  }

  it("shows an anonymous gift's message only when its donor ticked the box; staff see every message", async () => {
    const projectId = (await church.client.post('/api/show-up/projects', projectPayload())).body.id as number;
    await gift(projectId, { isAnonymous: true, message: 'Unticked: my private prayer', showMessage: false });
    await gift(projectId, { isAnonymous: true, message: 'Left out: anonymous stays private' });
    await gift(projectId, { isAnonymous: true, message: 'Ticked: go team', showMessage: true });
    await gift(projectId, { isAnonymous: false, donorName: 'Lydia', message: 'Named: shown by default' });
    const supporters = await guest.get(`/api/show-up/projects/${projectId}/donations`);
    expect(supporters.status).toBe(200);
    expect(supporters.body).toHaveLength(4);
    expect(supporters.text).not.toContain('my private prayer');
    expect(supporters.text).not.toContain('anonymous stays private');
    expect(supporters.text).toContain('Ticked: go team');
    expect(supporters.text).toContain('Named: shown by default');
    const staff = await church.client.get(`/api/show-up/projects/${projectId}/donations/report`);
    expect(staff.body.donations.map((d: { message: string }) => d.message).sort()).toEqual([
      'Left out: anonymous stays private',
      'Named: shown by default',
      'Ticked: go team',
      'Unticked: my private prayer',
    ]);
  });
});

describe('production without Stripe keys', async () => {
  const prodApp = await startTestApp({ nodeEnv: 'production' });
  const guest = new HttpClient(prodApp.url);

  it('disables giving with a sentence for the administrator', async () => {
    const cfg = await guest.get('/api/show-up/config');
    expect(cfg.body.giving).toMatchObject({ mode: 'disabled', available: false });
    expect(cfg.body.giving.message).toContain('STRIPE_SECRET_KEY');
    expect((await deliver(succeeded('pi_x', 100), { url: prodApp.url })).status).toBe(400);
  });
});
