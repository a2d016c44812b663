import { afterAll, describe, expect, it } from 'vitest';
import { twilioSignature } from '@lampstand/api/server';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { startFakeTwilio } from '../helpers/fake-twilio.js';
import { processInbound } from '../helpers/inbound.js';

const SID = 'AC00000000000000000000000000000001';
const TOKEN = 'test-auth-token-123';
const FROM = '+61400999000';
const PUBLIC_URL = 'http://lampstand.test';
const twilio = await startFakeTwilio({
  accountSid: SID,
  authToken: TOKEN,
  refuse: (to) =>
    to === '+61499999999' ? { code: 21211, message: "The 'To' number is not a valid phone number." } : undefined,
});
afterAll(() => twilio.close());
const app = await startTestApp(
  {
    twilioAccountSid: SID,
    twilioAuthToken: TOKEN,
    twilioFromNumber: FROM,
    twilioApiBaseUrl: twilio.url,
    publicUrl: PUBLIC_URL,
  },
  { retryBaseSeconds: 1 },
);
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');

let n = 0;
async function person(church: typeof grace, o: Record<string, unknown>) {
  n++;
  return (
    await church.client.post('/api/contacts', {
      firstName: `P${n}`,
      lastName: 'X',
      email: `s${n}@example.org`,
      phone: '0412345678',
      ...o,
    })
  ).body;
}
/** A contact's events of one kind ('sms', 'consent'), newest first. */
async function eventsOf(id: number, kind: string) {
  const { events } = (await grace.client.get(`/api/contacts/${id}/events?limit=100`)).body as {
    events: { type: string; actor: { kind: string }; data: Record<string, unknown> }[];
  };
  return events.filter((e) => e.type.startsWith(`${kind}.`));
}
async function listWith(church: typeof grace, contacts: { id: number }[], type = 'sms') {
  const list = (await church.client.post('/api/contact-lists', { name: `SMS ${++n}`, type })).body;
  for (const c of contacts) await church.client.post(`/api/contact-lists/${list.id}/contacts/${c.id}`);
  return list;
}
async function waitFor(client: HttpClient, id: number, status: string) {
  const start = Date.now();
  for (;;) {
    const c = (await client.get(`/api/sms-campaigns/${id}`)).body;
    if (c.status === status) return c;
    if (Date.now() - start > 20_000) throw new Error(`campaign is ${c.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
/** POST a webhook as Twilio would, signed (or not) with the auth token. */
async function webhook(path: string, params: Record<string, string>, signWith = TOKEN) {
  const signature = twilioSignature(signWith, `${PUBLIC_URL}${path}`, params);
  const res = await fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
    body: new URLSearchParams(params),
  });
  const answer = { status: res.status, text: await res.text() };
  // Incoming texts other than STOP/START/HELP are processed by a job: run it to the end.
  if (path === '/api/sms/inbound') await processInbound(app);
  return answer;
}

describe('SMS campaign API', () => {
  it('creates, validates with the spec messages, updates, deletes; listIds as strings', async () => {
    const list = await listWith(grace, []);
    const res = await grace.client.post('/api/sms-campaigns', {
      name: 'Youth night',
      content: 'Hi {{firstName}} 🙏',
      listIds: [String(list.id)],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'draft', listIds: [String(list.id)], encoding: 'UCS-2', segments: 1 });
    expect((await grace.client.post('/api/sms-campaigns', { name: '', content: 'x' })).body.message).toBe(
      'Campaign name is required',
    );
    expect((await grace.client.post('/api/sms-campaigns', { name: 'x', content: ' ' })).body.message).toBe(
      'SMS content is required',
    );
    const sched = await grace.client.post('/api/sms-campaigns', {
      name: 'x',
      content: 'y',
      status: 'scheduled',
      listIds: [list.id],
    });
    expect(sched.status).toBe(400);
    expect(sched.body.issues[0].path).toBe('scheduledFor');
    const updated = await grace.client.put(`/api/sms-campaigns/${res.body.id}`, {
      name: 'Youth night!',
      content: 'a'.repeat(161),
      status: 'ready',
      listIds: [list.id],
    });
    expect(updated.body).toMatchObject({ status: 'ready', segments: 2, encoding: 'GSM-7' });
    expect((await hope.client.get(`/api/sms-campaigns/${res.body.id}`)).status).toBe(404);
    expect((await hope.client.delete(`/api/sms-campaigns/${res.body.id}`)).status).toBe(404);
    expect((await grace.client.delete(`/api/sms-campaigns/${res.body.id}`)).status).toBe(200);
    expect((await new HttpClient(app.url).get('/api/sms-campaigns')).status).toBe(401);
  });
});

describe('sending through Twilio', () => {
  it('texts subscribed numbers once each (children through their parent), fills merge tags, follows status callbacks', async () => {
    const a = await person(grace, { firstName: 'Ann', phone: '0412 111 001' });
    const aDup = await person(grace, { firstName: 'Annie', phone: '+61412111001' }); // same number
    const b = await person(grace, { firstName: 'Ben', phone: '0412 111 002' });
    const u = await person(grace, { firstName: 'Una', phone: '0412 111 003' });
    await grace.client.put(`/api/contacts/${u.id}/consent`, { channel: 'sms', status: 'unsubscribed' });
    const bad = await person(grace, { firstName: 'Bad', phone: '0499 999 999' });
    const parent = await person(grace, { firstName: 'Pam', phone: '0412 111 004' });
    const list = await listWith(grace, [a, aDup, b, u, bad]);
    const child = (await grace.client.post(`/api/contacts/${parent.id}/children`, { name: 'Kid' })).body;
    await grace.client.post(`/api/contacts/children/${child.id}/lists/${list.id}`, {});

    const c = (
      await grace.client.post('/api/sms-campaigns', {
        name: 'Reminder',
        content: 'Hi {{firstName}}, {{churchName}} youth tonight',
        status: 'ready',
        listIds: [list.id],
      })
    ).body;
    // The confirmation's count is the send's own (children through their parent, one per number).
    const count = await grace.client.post('/api/sms-campaigns/recipient-count', { listIds: [String(list.id)] });
    expect(count.body).toEqual({ recipients: 4, lists: [{ id: list.id, name: list.name }] });
    const before = twilio.requests.length;
    const sent = await grace.client.post(`/api/sms-campaigns/${c.id}/send`);
    expect(sent.status).toBe(200);
    expect(sent.body.recipientCount).toBe(4); // Ann (once), Ben, Bad, Pam (for her child); not Una
    const done = await waitFor(grace.client, c.id, 'sent');
    expect(done.progress).toMatchObject({ total: 4, sent: 3, failed: 1 });
    const mine = twilio.requests.slice(before);
    expect(mine.map((r) => r.To).sort()).toEqual(['+61412111001', '+61412111002', '+61412111004']);
    expect(mine.every((r) => r.From === FROM && r.StatusCallback === `${PUBLIC_URL}/api/sms/status`)).toBe(true);
    expect(mine.find((r) => r.To === '+61412111002')!.Body).toBe('Hi Ben, Grace Church youth tonight');
    const failed = await app.db
      .selectFrom('deliveries')
      .select(['status', 'lastError', 'attempts'])
      .where('address', '=', '+61499999999')
      .executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed.lastError).toContain('21211');

    // Status callbacks move deliveries; a bad signature changes nothing.
    const annSid = mine.find((r) => r.To === '+61412111001')!.sid;
    const benSid = mine.find((r) => r.To === '+61412111002')!.sid;
    expect(
      (await webhook('/api/sms/status', { MessageSid: annSid, MessageStatus: 'delivered' }, 'wrong-token')).status,
    ).toBe(403);
    expect((await grace.client.get(`/api/sms-campaigns/${c.id}`)).body.progress.delivered).toBe(0);
    expect((await webhook('/api/sms/status', { MessageSid: annSid, MessageStatus: 'delivered' })).status).toBe(204);
    expect(
      (await webhook('/api/sms/status', { MessageSid: benSid, MessageStatus: 'undelivered', ErrorCode: '30003' }))
        .status,
    ).toBe(204);
    const after = (await grace.client.get(`/api/sms-campaigns/${c.id}`)).body;
    expect(after.progress).toMatchObject({ sent: 3, delivered: 1, undelivered: 1 });

    // Sent, delivered and failed are the people's events, the system's doing.
    const ref = { id: c.id, name: 'Reminder' };
    const kinds = async (id: number) =>
      (await eventsOf(id, 'sms')).map((e) => [e.type, e.actor.kind, e.data.campaign, e.data.reason ?? null]);
    expect(await kinds(a.id)).toEqual([
      ['sms.delivered', 'system', ref, null],
      ['sms.sent', 'system', ref, null],
    ]);
    expect(await kinds(b.id)).toEqual([
      ['sms.failed', 'system', ref, 'Error 30003'],
      ['sms.sent', 'system', ref, null],
    ]);
    expect((await kinds(bad.id))[0]).toEqual(['sms.failed', 'system', ref, expect.stringContaining('21211')]);
    const annSent = (await eventsOf(a.id, 'sms'))[1]!;
    expect(annSent.data.person).toEqual({ name: 'Ann X', email: null, phone: '+61412111001' });
    expect((await grace.client.post(`/api/sms-campaigns/${c.id}/send`)).status).toBe(409);
  });
});

describe('opt-out keywords', () => {
  it.each(['STOP', 'stop', ' Stop ', 'STOPALL', 'UNSUBSCRIBE', 'cancel', 'END', 'Quit', 'REVOKE', 'OPTOUT', 'opt out'])(
    '%j opts the number out, with one reply',
    async (word) => {
      const phone = `+614121${String(200000 + n).slice(-5)}`;
      const c = await person(grace, { phone });
      const sid = `SMin${Math.random().toString(16).slice(2)}`;
      const res = await webhook('/api/sms/inbound', { MessageSid: sid, From: phone, To: FROM, Body: word });
      expect(res.status).toBe(200);
      expect(res.text).toContain('<Message>You are unsubscribed from Grace Church texts');
      const contact = (await grace.client.get(`/api/contacts/${c.id}`)).body;
      expect(contact.consent.sms).toMatchObject({ status: 'unsubscribed', source: 'sms keyword' });
      // Twilio retries the same webhook: no second reply, no second change.
      const again = await webhook('/api/sms/inbound', { MessageSid: sid, From: phone, To: FROM, Body: word });
      expect(again.text).not.toContain('<Message>');
      expect((await grace.client.get(`/api/contacts/${c.id}/consent`)).body).toHaveLength(1);
    },
  );

  it('START and UNSTOP subscribe again; the next send honours the change; a bad signature is 403', async () => {
    const c = await person(grace, { firstName: 'Sam', phone: '0412 333 444' });
    const list = await listWith(grace, [c]);
    expect(
      (await webhook('/api/sms/inbound', { MessageSid: 'SMa1', From: '+61412333444', To: FROM, Body: 'STOP' }, 'nope'))
        .status,
    ).toBe(403);
    expect((await grace.client.get(`/api/contacts/${c.id}`)).body.consent.sms.status).toBe('subscribed');
    await webhook('/api/sms/inbound', { MessageSid: 'SMa2', From: '+61412333444', To: FROM, Body: 'STOP' });
    const campaign = (await grace.client.post('/api/sms-campaigns', { name: 'x', content: 'y', listIds: [list.id] }))
      .body;
    expect((await grace.client.post(`/api/sms-campaigns/${campaign.id}/send`)).status).toBe(400); // nobody left
    const res = await webhook('/api/sms/inbound', {
      MessageSid: 'SMa3',
      From: '+61412333444',
      To: FROM,
      Body: ' unstop ',
    });
    expect(res.text).toContain('You are subscribed again');
    expect((await grace.client.get(`/api/contacts/${c.id}`)).body.consent.sms.status).toBe('subscribed');
    expect((await grace.client.post(`/api/sms-campaigns/${campaign.id}/send`)).status).toBe(200);
    const history = (await grace.client.get(`/api/contacts/${c.id}/consent`)).body;
    expect(history.map((e: { status: string; note: string }) => [e.status, e.note])).toEqual([
      ['subscribed', 'UNSTOP'],
      ['unsubscribed', 'STOP'],
    ]);
    // Each keyword is a consent.changed of the person's own (the public's).
    const consent = await eventsOf(c.id, 'consent');
    expect(consent.map((e) => [e.actor.kind, e.data.channel, e.data.from, e.data.to, e.data.reason])).toEqual([
      ['public', 'sms', 'unsubscribed', 'subscribed', 'sms keyword'],
      ['public', 'sms', 'subscribed', 'unsubscribed', 'sms keyword'],
    ]);
  });

  it("a church's own number applies only to that church; other words change nothing", async () => {
    await hope.client.put('/api/settings', { postalAddress: 'x' });
    await app.db
      .updateTable('churchSettings')
      .set({ smsFromNumber: '+61400777777' })
      .where('userId', '=', hope.user.id)
      .execute();
    const g = await person(grace, { phone: '0412 555 666' });
    const h = await person(hope, { phone: '0412 555 666' });
    await webhook('/api/sms/inbound', { MessageSid: 'SMb1', From: '+61412555666', To: '+61400777777', Body: 'Stop' });
    expect((await hope.client.get(`/api/contacts/${h.id}`)).body.consent.sms.status).toBe('unsubscribed');
    expect((await grace.client.get(`/api/contacts/${g.id}`)).body.consent.sms.status).toBe('subscribed');
    const chat = await webhook('/api/sms/inbound', {
      MessageSid: 'SMb2',
      From: '+61412555666',
      To: FROM,
      Body: 'Please stop by later',
    });
    expect(chat.text).not.toContain('<Message>');
    expect((await grace.client.get(`/api/contacts/${g.id}`)).body.consent.sms.status).toBe('subscribed');
  });
});

describe('POST /api/sms-campaigns/recipient-count', () => {
  it('counts numbers that have not opted out, sends nothing, and keeps to the church', async () => {
    const a = await person(grace, { phone: '0412 222 001' });
    const gone = await person(grace, { phone: '0412 222 002' });
    await grace.client.put(`/api/contacts/${gone.id}/consent`, { channel: 'sms', status: 'unsubscribed' });
    const noPhone = await person(grace, { phone: '' });
    const list = await listWith(grace, [a, gone, noPhone]);
    const before = twilio.requests.length;
    const res = await grace.client.post('/api/sms-campaigns/recipient-count', { listIds: [list.id] });
    expect(res.status).toBe(200);
    expect(res.body.recipients).toBe(1);
    expect(twilio.requests.length).toBe(before);
    const theirs = await listWith(hope, []);
    expect((await grace.client.post('/api/sms-campaigns/recipient-count', { listIds: [theirs.id] })).status).toBe(404);
    expect((await grace.client.post('/api/sms-campaigns/recipient-count', {})).status).toBe(400);
  });
});
