import { afterAll, describe, expect, it } from 'vitest';
import { recordEvents } from '@lampstand/api/server';
import { registerChurch, startTestApp } from '../helpers/test-app.js';
import { startStandardReceiver } from '../helpers/standard-webhooks-receiver.js';

// Outgoing webhooks. The app's own worker sends them to a receiver on loopback
// (allowed by WEBHOOKS_ALLOW_LOOPBACK's setting), with retries a tenth of a second apart.
const receiver = await startStandardReceiver({ answer: (_n, w) => answers(w) });
let answers: (w: { body: { type: string; data: Record<string, any> } }) => number = () => 200;
const app = await startTestApp({ webhookReach: 'loopback', webhookRetryDelaysMs: [100, 100, 100, 100] });
afterAll(() => receiver.close());
const church = await registerChurch(app.url, 'Grace Church');
const other = await registerChurch(app.url, 'Hope Church');

/** Events as a feature records them: in a transaction, for the church. */
async function record(tenantId: number, names: string[]) {
  await app.db.transaction().execute((trx) =>
    recordEvents(
      trx,
      tenantId,
      names.map((name) => ({ type: 'contact.created' as const, payload: { via: 'api' as const, person: { name } } })),
    ),
  );
}

async function addEndpoint(client = church.client, body: Record<string, unknown> = {}) {
  const res = await client.post('/api/webhooks', { url: receiver.url, ...body });
  expect(res.status).toBe(201);
  receiver.trust(res.body.secret);
  return res.body as { id: number; secret: string; secretHint: string };
}

async function waitFor<T>(what: () => Promise<T | undefined | false>, label: string): Promise<T> {
  const until = Date.now() + 20_000;
  for (;;) {
    const v = await what();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const deliveriesOf = async (id: number) => (await church.client.get(`/api/webhooks/${id}/deliveries`)).body.deliveries;

describe('Webhook endpoints', () => {
  it('are created with a secret shown once, listed, read, changed in part and deleted', async () => {
    const created = await addEndpoint(church.client, {
      eventTypes: ['contact.created', 'donation.succeeded'],
      description: 'CRM sync',
    });
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.secretHint).toBe(`${created.secret.slice(0, 10)}…`);
    const list = await church.client.get('/api/webhooks');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(created.secret);
    const one = await church.client.get(`/api/webhooks/${created.id}`);
    expect(one.body).toMatchObject({ url: receiver.url, description: 'CRM sync', enabled: true, disabledReason: null });
    const patched = await church.client.patch(`/api/webhooks/${created.id}`, { description: 'Mailing sync' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      description: 'Mailing sync',
      eventTypes: ['contact.created', 'donation.succeeded'],
    });
    const off = await church.client.patch(`/api/webhooks/${created.id}`, { enabled: false });
    expect(off.body).toMatchObject({ enabled: false, disabledReason: 'staff' });
    expect((await church.client.delete(`/api/webhooks/${created.id}`)).status).toBe(200);
    expect((await church.client.get(`/api/webhooks/${created.id}`)).status).toBe(404);
  });

  it('refuse unknown event types, private addresses and a 21st endpoint, naming the field', async () => {
    const unknown = await church.client.post('/api/webhooks', { url: receiver.url, eventTypes: ['contact.exploded'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues[0]).toMatchObject({
      path: 'eventTypes',
      message: 'Unknown event type: contact.exploded',
    });
    for (const url of ['https://10.0.0.5/hook', 'https://[::ffff:169.254.169.254]/x', 'https://192.168.1.1/x']) {
      const res = await other.client.post('/api/webhooks', { url });
      expect(res.status, url).toBe(400);
      expect(res.body.issues[0].path).toBe('url');
    }
    const bad = await church.client.post('/api/webhooks', { url: 'ftp://example.org/x' });
    expect(bad.body.issues[0].path).toBe('url');
    const crowd = await registerChurch(app.url, 'Busy Church');
    for (let i = 0; i < 20; i++)
      expect((await crowd.client.post('/api/webhooks', { url: `https://example.org/${i}` })).status).toBe(201);
    const more = await crowd.client.post('/api/webhooks', { url: 'https://example.org/21' });
    expect(more.status).toBe(400);
    expect(more.body.message).toBe('A church can have at most 20 webhook endpoints');
  });

  it("answer 404 for another church's endpoint and deliveries, on every route", async () => {
    const mine = await addEndpoint();
    const test = await church.client.post(`/api/webhooks/${mine.id}/test`);
    const paths = [
      ['GET', `/api/webhooks/${mine.id}`],
      ['PATCH', `/api/webhooks/${mine.id}`],
      ['DELETE', `/api/webhooks/${mine.id}`],
      ['POST', `/api/webhooks/${mine.id}/rotate-secret`],
      ['POST', `/api/webhooks/${mine.id}/test`],
      ['GET', `/api/webhooks/${mine.id}/deliveries`],
      ['POST', `/api/webhooks/${mine.id}/deliveries/${test.body.id}/redeliver`],
    ] as const;
    for (const [method, path] of paths) {
      const res = await other.client.request(method, path, method === 'PATCH' ? { description: 'x' } : undefined);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    // Not even through its own endpoint: a delivery of another endpoint is not found.
    const theirs = await addEndpoint(other.client);
    const res = await other.client.post(`/api/webhooks/${theirs.id}/deliveries/${test.body.id}/redeliver`);
    expect(res.status).toBe(404);
    await church.client.delete(`/api/webhooks/${mine.id}`);
    await other.client.delete(`/api/webhooks/${theirs.id}`);
  });

  it('https only outside development, and no loopback without the setting', async () => {
    const prod = await startTestApp({ webhookAllowHttp: false });
    const c = await registerChurch(prod.url, 'Strict Church');
    const res = await c.client.post('/api/webhooks', { url: 'http://example.org/hook' });
    expect(res.status).toBe(400);
    expect(res.body.issues[0]).toMatchObject({ path: 'url', message: 'The webhook URL must start with https://' });
    // Loopback is private there too (this app reaches public addresses only).
    const local = await c.client.post('/api/webhooks', { url: 'https://localhost./hook' });
    expect(local.body.issues[0]).toMatchObject({
      path: 'url',
      message: 'The webhook URL must be a public address, not one inside a private network',
    });
    expect((await c.client.post('/api/webhooks', { url: 'https://example.org/hook' })).status).toBe(201);
  });
});

describe('Webhook deliveries', () => {
  it('deliver the events an endpoint wants, signed (Standard Webhooks), with the event as data', async () => {
    const ep = await addEndpoint(church.client, { eventTypes: ['contact.created'] });
    const before = receiver.all.length;
    await record(church.user.id, ['Ada Lovelace', 'Grace Hopper']);
    await app.db
      .transaction()
      .execute((trx) => recordEvents(trx, church.user.id, [{ type: 'contact.deleted', payload: {} }]));
    await receiver.arrived(before + 2);
    const mine = receiver.all.slice(before);
    expect(mine.map((w) => w.body.data.data.person.name).sort()).toEqual(['Ada Lovelace', 'Grace Hopper']);
    expect(mine[0]!.body.type).toBe('contact.created');
    expect(mine[0]!.body.data).toMatchObject({ type: 'contact.created', version: 1, actor: { kind: 'system' } });
    expect(mine[0]!.id).toMatch(/^msg_[0-9a-f]{32}$/);
    const log = await waitFor(async () => {
      const d = await deliveriesOf(ep.id);
      return d.length === 2 && d.every((x: { status: string }) => x.status === 'delivered') && d;
    }, 'delivered');
    expect(log[0]).toMatchObject({ type: 'contact.created', attempts: 1, responseStatus: 200 });
    expect(log[0].response).toMatch(/^ok msg_/);
    // The other church's events never reach this endpoint.
    await record(other.user.id, ['Someone Else']);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await deliveriesOf(ep.id)).toHaveLength(2);
    await church.client.delete(`/api/webhooks/${ep.id}`);
  });

  it('a receiver failing 3 times then answering 2xx: delivered once, the same webhook-id on every try', async () => {
    const ep = await addEndpoint();
    let tries = 0;
    answers = (w) => (w.body.data?.data?.person?.name === 'Retry Rita' ? (++tries <= 3 ? 503 : 200) : 200);
    const before = receiver.all.length;
    await record(church.user.id, ['Retry Rita']);
    await receiver.arrived(before + 4);
    const mine = receiver.all.slice(before);
    expect(mine.map((w) => w.status)).toEqual([503, 503, 503, 200]);
    expect(new Set(mine.map((w) => w.id)).size).toBe(1);
    expect(receiver.accepted.filter((w) => w.id === mine[0]!.id)).toHaveLength(1);
    const [d] = await waitFor(async () => {
      const list = await deliveriesOf(ep.id);
      return list[0]?.status === 'delivered' && list;
    }, 'delivered');
    expect(d).toMatchObject({ attempts: 4, responseStatus: 200, messageId: mine[0]!.id });
    answers = () => 200;
    await church.client.delete(`/api/webhooks/${ep.id}`);
  });

  it('a test event and a redelivery: in the log, the same webhook-id again', async () => {
    const ep = await addEndpoint();
    const sent = await church.client.post(`/api/webhooks/${ep.id}/test`);
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ type: 'webhook.test', status: 'pending', attempts: 0 });
    const delivered = await waitFor(async () => {
      const [d] = await deliveriesOf(ep.id);
      return d?.status === 'delivered' && d;
    }, 'test delivered');
    const first = receiver.all.find((w) => w.id === delivered.messageId)!;
    expect(first.body).toMatchObject({ type: 'webhook.test', data: { message: 'A test event from Lampstand' } });
    const again = await church.client.post(`/api/webhooks/${ep.id}/deliveries/${delivered.id}/redeliver`);
    expect(again.status).toBe(200);
    await waitFor(async () => {
      const [d] = await deliveriesOf(ep.id);
      return d?.attempts === 2 && d.status === 'delivered';
    }, 'redelivered');
    expect(receiver.all.filter((w) => w.id === delivered.messageId)).toHaveLength(2);
    await church.client.delete(`/api/webhooks/${ep.id}`);
  });

  it('after a rotation both secrets sign for 24 hours; the new one alone verifies', async () => {
    const ep = await addEndpoint();
    const rotated = await church.client.post(`/api/webhooks/${ep.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(ep.secret);
    const hours = (Date.parse(rotated.body.previousSecretUntil) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    // Trusting only the new secret: the request still verifies.
    const only = await startStandardReceiver();
    only.trust(rotated.body.secret);
    await church.client.patch(`/api/webhooks/${ep.id}`, { url: only.url });
    await church.client.post(`/api/webhooks/${ep.id}/test`);
    await only.arrived(1);
    expect(only.all[0]!.signatures).toHaveLength(2);
    expect(only.badSignatures).toBe(0);
    await only.close();
    await church.client.delete(`/api/webhooks/${ep.id}`);
  });

  it('410 Gone turns the endpoint off; 3 days of failures turn it off and email the church', async () => {
    const gone = await addEndpoint();
    answers = (w) => (w.body.type === 'webhook.test' && w.body.data.webhookId === gone.id ? 410 : 200);
    await church.client.post(`/api/webhooks/${gone.id}/test`);
    await waitFor(
      async () => (await church.client.get(`/api/webhooks/${gone.id}`)).body.disabledReason === 'gone',
      'gone',
    );
    // Turned off: a test is refused until it is turned back on.
    expect((await church.client.post(`/api/webhooks/${gone.id}/test`)).status).toBe(400);

    const failing = await addEndpoint();
    answers = (w) => (w.body.data.webhookId === failing.id ? 500 : 200);
    // Failing for 3 days already (the clock of the streak, moved back), then one more failure.
    await app.db
      .updateTable('webhookEndpoints')
      .set({ failingSince: new Date(Date.now() - 3 * 24 * 3600 * 1000 - 1000) })
      .where('id', '=', failing.id)
      .execute();
    await church.client.post(`/api/webhooks/${failing.id}/test`);
    const off = await waitFor(async () => {
      const e = (await church.client.get(`/api/webhooks/${failing.id}`)).body;
      return e.disabledReason === 'failing' && e;
    }, 'failing');
    expect(off.enabled).toBe(false);
    const mail = await waitFor(
      () =>
        app.db
          .selectFrom('outboxMessages')
          .selectAll()
          .where('userId', '=', church.user.id)
          .where('subject', '=', 'A webhook endpoint was turned off')
          .executeTakeFirst(),
      'email',
    );
    expect(mail.toAddress).toBe(church.user.email);
    expect(mail.text).toContain(receiver.url);
    // Turned back on, it works again.
    answers = () => 200;
    const on = await church.client.patch(`/api/webhooks/${failing.id}`, { enabled: true });
    expect(on.body).toMatchObject({ enabled: true, disabledReason: null });
  });
});
