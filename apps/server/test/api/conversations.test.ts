import { afterAll, describe, expect, it } from 'vitest';
import { processInboundTexts, receiveInboundSms, twilioSignature } from '@lampstand/api/server';
import { createDb, sql } from '@lampstand/db';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { startFakeTwilio } from '../helpers/fake-twilio.js';
import { processInbound } from '../helpers/inbound.js';

// Inbound texts on conversations, staff replies through the delivery engine.
const SID = 'AC00000000000000000000000000000032';
const TOKEN = 'test-auth-token-32';
const FROM = '+61400999000';
const PUBLIC_URL = 'http://lampstand.test';
const twilio = await startFakeTwilio({ accountSid: SID, authToken: TOKEN });
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
const HOPE_NUMBER = '+61400777777';
await hope.client.put('/api/settings', { postalAddress: 'x' });
await app.db
  .updateTable('churchSettings')
  .set({ smsFromNumber: HOPE_NUMBER })
  .where('userId', '=', hope.user.id)
  .execute();

let n = 0;
const sid = () => `SM${(++n).toString(16).padStart(32, '0')}`;
async function person(church: typeof grace, o: Record<string, unknown>) {
  n++;
  const res = await church.client.post('/api/contacts', {
    firstName: `P${n}`,
    lastName: 'X',
    email: `c${n}@example.org`,
    phone: `+6141290${String(n).padStart(4, '0')}`,
    ...o,
  });
  if (res.status !== 201) throw new Error(`adding a contact failed: ${res.text}`);
  return res.body as { id: number };
}
/** POST a text as Twilio would, signed (or not) with the auth token. */
async function post(params: Record<string, string>, signWith = TOKEN, path = '/api/twilio/inbound') {
  const signature = twilioSignature(signWith, `${PUBLIC_URL}${path}`, params);
  const res = await fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
    body: new URLSearchParams(params),
  });
  return { status: res.status, text: await res.text() };
}
/** A text, then the 'sms-inbound-process' job run until every stored text is on its conversations. */
async function text(params: Record<string, string>, signWith = TOKEN, path = '/api/twilio/inbound') {
  const res = await post(params, signWith, path);
  await processInbound(app);
  return res;
}
type Conv = { id: number; name: string; phone: string; unread: number; status: string; contactId: number | null };
async function conversations(church: typeof grace, query = '') {
  const res = await church.client.get(`/api/conversations${query}`);
  expect(res.status).toBe(200);
  return res.body as { conversations: Conv[]; total: number; unreadTotal: number };
}
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() - start > 15_000) throw new Error(`gave up waiting: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('POST /api/twilio/inbound', () => {
  it('stores a text on the conversation with the contact, in the church whose number it is, once', async () => {
    const ann = await person(hope, { firstName: 'Ann', phone: '+61412000001' });
    // The same number at Grace: Hope's own number does not reach Grace.
    await person(grace, { firstName: 'Other', phone: '+61412000001' });
    const params = { MessageSid: sid(), From: '+61412000001', To: HOPE_NUMBER, Body: 'Running late, save me a seat' };
    const res = await text(params);
    expect(res.status).toBe(200);
    expect(res.text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    expect((await text(params)).status).toBe(200); // Twilio retried: stored once
    const list = await conversations(hope);
    const conv = list.conversations.find((c) => c.phone === '+61412000001')!;
    expect(conv).toMatchObject({ name: 'Ann X', contactId: ann.id, unread: 1, status: 'open' });
    expect(list.unreadTotal).toBe(1);
    expect((await conversations(grace)).conversations.some((c) => c.phone === '+61412000001')).toBe(false);
    const thread = (await hope.client.get(`/api/conversations/${conv.id}/messages`)).body.messages;
    expect(thread).toEqual([
      expect.objectContaining({ direction: 'inbound', kind: 'text', body: 'Running late, save me a seat' }),
    ]);
    // The event on the person, with no keyword.
    const events = (await hope.client.get(`/api/contacts/${ann.id}/events?limit=20`)).body.events as {
      type: string;
      actor: { kind: string };
      data: Record<string, unknown>;
    }[];
    const received = events.filter((e) => e.type === 'sms.received');
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      actor: { kind: 'public' },
      data: { body: 'Running late, save me a seat', keyword: null, conversationId: conv.id },
    });
  });

  it('a text with a NUL byte is refused (400) alone: the texts that arrived with it are stored', async () => {
    // The webhook's rows are written together (group commit): a text PostgreSQL cannot hold is
    // refused before it joins a statement, so it cannot fail the others.
    const texts = ['one', 'two\u0000wo', 'three'].map((body, i) => ({
      MessageSid: sid(),
      From: `+6141200007${i}`,
      To: HOPE_NUMBER,
      Body: body,
    }));
    const answers = await Promise.all(texts.map((t) => post(t)));
    expect(answers.map((a) => a.status)).toEqual([200, 400, 200]);
    expect(answers[1]!.text).toContain('Body contains characters that are not allowed');
    await processInbound(app);
    const stored = await app.db
      .selectFrom('smsInboundMessages')
      .select(['body', 'processedAt'])
      .where(
        'messageSid',
        'in',
        texts.map((t) => t.MessageSid),
      )
      .orderBy('fromNumber')
      .execute();
    expect(stored.map((r) => r.body)).toEqual(['one', 'three']);
    expect(stored.every((r) => r.processedAt !== null)).toBe(true);
  });

  it('a MessageSid too long is refused alone, naming it, and the texts that arrived with it are stored', async () => {
    // Too long for its unique index too (random, so it cannot be compressed): refused before it
    // can join the statement the others share.
    const texts = Array.from({ length: 8 }, (_, i) => ({
      MessageSid: i === 4 ? Array.from({ length: 12_000 }, () => Math.random().toString(36)[2]).join('') : sid(),
      From: `+6141200008${i}`,
      To: HOPE_NUMBER,
      Body: `text ${i}`,
    }));
    const answers = await Promise.all(texts.map((t) => post(t)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 400, 200, 200, 200]);
    expect(answers[4]!.text).toContain('MessageSid must be at most 64 characters');
    const stored = await app.db
      .selectFrom('smsInboundMessages')
      .select('body')
      .where('fromNumber', 'like', '+6141200008_')
      .orderBy('fromNumber')
      .execute();
    expect(stored.map((r) => r.body)).toEqual(['text 0', 'text 1', 'text 2', 'text 3', 'text 5', 'text 6', 'text 7']);
  });

  it('refuses an unsigned or wrongly signed text with 403 and stores nothing', async () => {
    const params = { MessageSid: sid(), From: '+61412000099', To: HOPE_NUMBER, Body: 'hello' };
    expect((await text(params, 'wrong-token')).status).toBe(403);
    const unsigned = await fetch(`${app.url}/api/twilio/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params),
    });
    expect(unsigned.status).toBe(403);
    const stored = await app.db
      .selectFrom('smsInboundMessages')
      .select('id')
      .where('fromNumber', '=', '+61412000099')
      .execute();
    expect(stored).toHaveLength(0);
    expect((await conversations(hope)).conversations.some((c) => c.phone === '+61412000099')).toBe(false);
  });

  it("an unknown number is 'Unknown' until staff link it to a contact or make a new one", async () => {
    await text({ MessageSid: sid(), From: '+61412000002', To: HOPE_NUMBER, Body: 'Who is this?' });
    await text({ MessageSid: sid(), From: '+61412000003', To: HOPE_NUMBER, Body: 'Hi there' });
    const list = await conversations(hope);
    const a = list.conversations.find((c) => c.phone === '+61412000002')!;
    const b = list.conversations.find((c) => c.phone === '+61412000003')!;
    expect(a).toMatchObject({ name: 'Unknown', contactId: null });
    const bob = await person(hope, { firstName: 'Bob', lastName: 'Jones' });
    const linked = await hope.client.patch(`/api/conversations/${a.id}`, { contactId: bob.id });
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({ name: 'Bob Jones', contactId: bob.id });
    const made = await hope.client.patch(`/api/conversations/${b.id}`, {
      newContact: { firstName: 'Cara', lastName: 'New' },
    });
    expect(made.status).toBe(200);
    expect(made.body.name).toBe('Cara New');
    const cara = (await hope.client.get(`/api/contacts/${made.body.contactId}`)).body;
    expect(cara.phone).toContain('412000003');
    // Another church's contact is not found; a conversation of another church is 404.
    const theirs = await person(grace, {});
    expect((await hope.client.patch(`/api/conversations/${a.id}`, { contactId: theirs.id })).status).toBe(404);
    expect((await grace.client.get(`/api/conversations/${a.id}`)).status).toBe(404);
    expect((await grace.client.patch(`/api/conversations/${a.id}`, { status: 'closed' })).status).toBe(404);
    expect((await grace.client.get(`/api/conversations/${a.id}/messages`)).status).toBe(404);
    expect((await grace.client.post(`/api/conversations/${a.id}/messages`, { body: 'hi' })).status).toBe(404);
  });

  it('STOP/START/HELP keep their handling and appear in the conversation with their keyword', async () => {
    const c = await person(hope, { firstName: 'Dan', phone: '+61412000004' });
    const stop = await text({ MessageSid: sid(), From: '+61412000004', To: HOPE_NUMBER, Body: ' stop ' });
    expect(stop.text).toContain('<Message>You are unsubscribed from Hope Chapel texts');
    expect((await hope.client.get(`/api/contacts/${c.id}`)).body.consent.sms.status).toBe('unsubscribed');
    const conv = (await conversations(hope)).conversations.find((x) => x.phone === '+61412000004')!;
    expect(conv).toMatchObject({ optedOut: true });
    // Nobody can answer a person who texted STOP.
    const refused = await hope.client.post(`/api/conversations/${conv.id}/messages`, { body: 'Sorry to see you go' });
    expect(refused.status).toBe(409);
    const help = await text({ MessageSid: sid(), From: '+61412000004', To: HOPE_NUMBER, Body: 'HELP' });
    expect(help.text).toContain('<Message>Texts from Hope Chapel. Reply STOP to unsubscribe');
    const start = await text({ MessageSid: sid(), From: '+61412000004', To: HOPE_NUMBER, Body: 'Start' });
    expect(start.text).toContain('<Message>You are subscribed again to Hope Chapel texts');
    const thread = (await hope.client.get(`/api/conversations/${conv.id}/messages`)).body.messages as {
      body: string;
      keyword: string | null;
    }[];
    expect(thread.map((m) => [m.body, m.keyword])).toEqual([
      [' stop ', 'STOP'],
      ['HELP', 'HELP'],
      ['Start', 'START'],
    ]);
    const events = (await hope.client.get(`/api/contacts/${c.id}/events?limit=50`)).body.events as {
      type: string;
      data: { keyword?: string };
    }[];
    expect(events.filter((e) => e.type === 'sms.received').map((e) => e.data.keyword)).toEqual([
      'START',
      'HELP',
      'STOP',
    ]);
  });

  it('the shared platform number reaches the one church that texted the person in the last 30 days', async () => {
    const phone = '+61412000005';
    const g = await person(grace, { firstName: 'Eve', phone });
    const list = (await grace.client.post('/api/contact-lists', { name: 'Youth', type: 'sms' })).body;
    await grace.client.post(`/api/contact-lists/${list.id}/contacts/${g.id}`);
    const campaign = (
      await grace.client.post('/api/sms-campaigns', {
        name: 'Youth night',
        content: 'Hi {{firstName}}, youth tonight at 7',
        status: 'ready',
        listIds: [list.id],
      })
    ).body;
    expect((await grace.client.post(`/api/sms-campaigns/${campaign.id}/send`)).status).toBe(200);
    await until(
      async () => (await grace.client.get(`/api/sms-campaigns/${campaign.id}`)).body.status,
      (s) => s === 'sent',
    );
    // A third church that never texted Eve gets nothing; an old text (31 days ago) does not count.
    const other = await registerChurch(app.url, 'Old Church');
    const o = await person(other, { phone });
    const theirs = (await other.client.post('/api/sms-campaigns', { name: 'Old', content: 'Old news' })).body;
    await app.db
      .insertInto('deliveries')
      .values({
        userId: other.user.id,
        channel: 'sms',
        kind: 'campaign',
        campaignId: theirs.id,
        contactId: o.id,
        address: phone,
        token: 'x'.repeat(48),
        status: 'sent',
        sentAt: new Date(Date.now() - 31 * 86_400_000),
      })
      .execute();
    await text({ MessageSid: sid(), From: phone, To: FROM, Body: 'Can I bring a friend?' });
    const conv = (await conversations(grace)).conversations.find((c) => c.phone === phone)!;
    expect(conv).toMatchObject({ name: 'Eve X', unread: 1 });
    expect((await conversations(other)).conversations).toHaveLength(0);
    // One timeline: the campaign text sent to Eve, then her reply.
    const thread = (await grace.client.get(`/api/conversations/${conv.id}/messages`)).body.messages;
    expect(thread.map((m: { kind: string; body: string }) => [m.kind, m.body])).toEqual([
      ['campaign', 'Hi Eve, youth tonight at 7'],
      ['text', 'Can I bring a friend?'],
    ]);
    expect(thread[0].campaignName).toBe('Youth night');
    // The older /api/sms/inbound address answers the same.
    await text({ MessageSid: sid(), From: phone, To: FROM, Body: 'Thanks' }, TOKEN, '/api/sms/inbound');
    expect((await grace.client.get(`/api/conversations/${conv.id}`)).body.unread).toBe(2);
  });
});

describe('conversations', () => {
  it('staff reply through the engine, exactly once; read, assign, close and reopen; filters and search', async () => {
    const phone = '+61412000006';
    await person(hope, { firstName: 'Fay', lastName: 'Lee', phone });
    await text({ MessageSid: sid(), From: phone, To: HOPE_NUMBER, Body: 'Is there parking?' });
    const conv = (await conversations(hope, '?search=Fay')).conversations[0]!;
    expect(conv).toMatchObject({ phone, unread: 1 });

    const long = await hope.client.post(`/api/conversations/${conv.id}/messages`, { body: 'x'.repeat(1601) });
    expect(long.status).toBe(400);
    expect(long.body.issues[0]).toMatchObject({ path: 'body', message: 'Reply must be at most 1,600 characters' });
    expect((await hope.client.post(`/api/conversations/${conv.id}/messages`, { body: '  ' })).body.message).toBe(
      'Reply is required',
    );

    const before = twilio.requests.length;
    const sent = await hope.client.post(`/api/conversations/${conv.id}/messages`, {
      body: 'Yes, behind the hall.',
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ direction: 'outbound', kind: 'reply', status: 'pending' });
    const thread = await until(
      async () => (await hope.client.get(`/api/conversations/${conv.id}/messages`)).body.messages,
      (m: { kind: string; status: string; body: string }[]) => m.some((x) => x.kind === 'reply' && x.status === 'sent'),
    );
    expect(thread.map((m: { body: string }) => m.body)).toEqual(['Is there parking?', 'Yes, behind the hall.']);
    const mine = twilio.requests.slice(before);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ To: phone, From: HOPE_NUMBER, Body: 'Yes, behind the hall.' });
    // The reply is a delivery of the engine with its `sms.sent` event; answering read the thread.
    const d = await app.db
      .selectFrom('deliveries')
      .select(['kind', 'status', 'providerMessageId'])
      .where('conversationId', '=', conv.id)
      .execute();
    expect(d).toEqual([{ kind: 'conversation-reply', status: 'sent', providerMessageId: mine[0]!.sid }]);
    expect((await hope.client.get(`/api/conversations/${conv.id}`)).body.unread).toBe(0);

    // Unread again, read; assign to me; close (the open filter drops it), reopen.
    expect((await hope.client.patch(`/api/conversations/${conv.id}`, { read: false })).body.unread).toBe(1);
    expect((await hope.client.patch(`/api/conversations/${conv.id}`, { read: true })).body.unread).toBe(0);
    const badAssign = await hope.client.patch(`/api/conversations/${conv.id}`, { assignedUserId: grace.user.id });
    expect(badAssign.status).toBe(400);
    expect(badAssign.body.message).toBe('Assigned user must be a staff user of this church');
    const assigned = await hope.client.patch(`/api/conversations/${conv.id}`, { assignedUserId: hope.user.id });
    expect(assigned.body.assignedUserId).toBe(hope.user.id);
    expect((await conversations(hope, '?assigned=me')).conversations.map((c) => c.id)).toEqual([conv.id]);
    expect((await hope.client.patch(`/api/conversations/${conv.id}`, { status: 'closed' })).body.status).toBe('closed');
    expect((await conversations(hope, '?status=open')).conversations.some((c) => c.id === conv.id)).toBe(false);
    expect((await conversations(hope, '?status=closed')).conversations.map((c) => c.id)).toEqual([conv.id]);
    // A new text reopens it, newest first.
    await text({ MessageSid: sid(), From: phone, To: HOPE_NUMBER, Body: 'Thank you!' });
    const after = await conversations(hope, '?status=open');
    expect(after.conversations[0]).toMatchObject({ id: conv.id, status: 'open', unread: 1 });
    expect((await conversations(hope, '?search=412000006')).conversations.map((c) => c.id)).toEqual([conv.id]);
    expect((await hope.client.get('/api/conversations?status=archived')).status).toBe(400);
    expect((await new HttpClient(app.url).get('/api/conversations')).status).toBe(401);
  });

  it('quick replies are saved per church', async () => {
    const made = await hope.client.post('/api/sms-quick-replies', {
      title: 'Parking',
      body: 'Parking is behind the hall.',
    });
    expect(made.status).toBe(201);
    expect((await hope.client.get('/api/sms-quick-replies')).body).toEqual([made.body]);
    expect((await grace.client.get('/api/sms-quick-replies')).body).toEqual([]);
    expect((await grace.client.delete(`/api/sms-quick-replies/${made.body.id}`)).status).toBe(404);
    expect((await hope.client.post('/api/sms-quick-replies', { title: '', body: 'x' })).body.message).toBe(
      'Title is required',
    );
    expect((await hope.client.delete(`/api/sms-quick-replies/${made.body.id}`)).status).toBe(200);
  });
});

describe('SMS keywords', () => {
  it('refuses reserved words, three words, an empty keyword and nothing to do, naming the field', async () => {
    for (const [keyword, message] of [
      ['stop', 'STOP is reserved for opting out, in or for help'],
      ['Opt out', 'OPT OUT is reserved for opting out, in or for help'],
      ['help me', 'HELP ME is reserved for opting out, in or for help'],
      ['START', 'START is reserved for opting out, in or for help'],
      ['join youth group', 'Keyword must be one or two words'],
      ['!!', 'Keyword is required'],
    ]) {
      const res = await grace.client.post('/api/sms-keywords', { keyword, replyText: 'Hi' });
      expect(res.status, keyword).toBe(400);
      expect(res.body.issues[0]).toMatchObject({ path: 'keyword', message });
    }
    const nothing = await grace.client.post('/api/sms-keywords', { keyword: 'PRAY' });
    expect(nothing.status).toBe(400);
    expect(nothing.body.issues[0]).toMatchObject({
      path: 'replyText',
      message: 'Choose what the keyword does: a reply, a list, a journey or a task',
    });
    const theirList = (await hope.client.post('/api/contact-lists', { name: 'Theirs', type: 'sms' })).body;
    expect((await grace.client.post('/api/sms-keywords', { keyword: 'X', listId: theirList.id })).status).toBe(404);
  });

  it('matches the first word(s) in any case with punctuation: replies through the engine, adds to a list, each an event', async () => {
    const youth = (await hope.client.post('/api/contact-lists', { name: 'Youth', type: 'sms' })).body;
    const join = await hope.client.post('/api/sms-keywords', {
      keyword: 'join youth',
      replyText: 'Welcome to youth! Fridays at 7.',
      listId: youth.id,
    });
    expect(join.status).toBe(201);
    expect(join.body).toMatchObject({ keyword: 'JOIN YOUTH', listId: youth.id, listName: 'Youth', matches: 0 });
    const pray = await hope.client.post('/api/sms-keywords', { keyword: 'Pray', replyText: 'We are praying for you.' });
    expect(pray.body.keyword).toBe('PRAY');
    expect((await hope.client.post('/api/sms-keywords', { keyword: 'PRAY!', replyText: 'x' })).status).toBe(409);
    // Another church's keyword is not found; PATCH changes only what is sent.
    expect((await grace.client.patch(`/api/sms-keywords/${pray.body.id}`, { replyText: 'x' })).status).toBe(404);
    const patched = await hope.client.patch(`/api/sms-keywords/${pray.body.id}`, {
      replyText: 'We are praying for you!',
    });
    expect(patched.body).toMatchObject({ keyword: 'PRAY', replyText: 'We are praying for you!' });

    // A known contact, lower case with punctuation: added to Youth, answered once.
    const gil = await person(hope, { firstName: 'Gil', phone: '+61412000007' });
    const before = twilio.requests.length;
    const res = await text({ MessageSid: sid(), From: '+61412000007', To: HOPE_NUMBER, Body: 'join, youth!!' });
    expect(res.text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    await until(
      async () => twilio.requests.slice(before),
      (r) => r.length >= 1,
    );
    expect(twilio.requests.slice(before)).toEqual([
      expect.objectContaining({ To: '+61412000007', From: HOPE_NUMBER, Body: 'Welcome to youth! Fridays at 7.' }),
    ]);
    const members = await app.db
      .selectFrom('contactsInLists')
      .select('contactId')
      .where('listId', '=', youth.id)
      .execute();
    expect(members.map((m) => m.contactId)).toEqual([gil.id]);
    const events = (await hope.client.get(`/api/contacts/${gil.id}/events?limit=20`)).body.events as {
      type: string;
      data: Record<string, unknown>;
    }[];
    expect(events.find((e) => e.type === 'sms.received')!.data.keyword).toBe('JOIN YOUTH');
    expect(events.some((e) => e.type === 'list.member_added')).toBe(true);

    // An unknown number, upper case: becomes a contact on the list; 'PRAY for my mum' matches PRAY.
    await text({ MessageSid: sid(), From: '+61412000008', To: HOPE_NUMBER, Body: 'JOIN YOUTH' });
    const conv = (await conversations(hope)).conversations.find((c) => c.phone === '+61412000008')!;
    expect(conv.contactId).not.toBeNull();
    const after = await app.db
      .selectFrom('contactsInLists')
      .select('contactId')
      .where('listId', '=', youth.id)
      .execute();
    expect(after.map((m) => m.contactId).sort()).toEqual([gil.id, conv.contactId].sort());
    await text({ MessageSid: sid(), From: '+61412000008', To: HOPE_NUMBER, Body: 'Pray for my mum, please' });
    const thread = await until(
      async () => (await hope.client.get(`/api/conversations/${conv.id}/messages`)).body.messages,
      (m: { kind: string; status: string; body: string; keyword: string | null }[]) =>
        m.filter((x) => x.kind === 'reply' && x.status === 'sent').length === 2,
    );
    expect(thread.map((m: { body: string; keyword: string | null }) => [m.body, m.keyword])).toEqual([
      ['JOIN YOUTH', 'JOIN YOUTH'],
      ['Welcome to youth! Fridays at 7.', 'JOIN YOUTH'],
      ['Pray for my mum, please', 'PRAY'],
      ['We are praying for you!', 'PRAY'],
    ]);
    // 'Prayer' is not PRAY; the keyword list counts matches.
    await text({ MessageSid: sid(), From: '+61412000008', To: HOPE_NUMBER, Body: 'Prayer meeting?' });
    const keywords = (await hope.client.get('/api/sms-keywords')).body as { keyword: string; matches: number }[];
    expect(keywords.map((k) => [k.keyword, k.matches])).toEqual([
      ['JOIN YOUTH', 2],
      ['PRAY', 1],
    ]);
    expect((await hope.client.delete(`/api/sms-keywords/${pray.body.id}`)).status).toBe(200);
    expect((await hope.client.get('/api/sms-keywords')).body).toHaveLength(1);
  });

  it('starts a journey and creates a follow-up task, once per text', async () => {
    const journey = (
      await hope.client.post('/api/journeys', {
        name: 'Prayer follow-up',
        trigger: { kind: 'manual' },
        steps: [{ id: 'w', kind: 'wait', wait: { mode: 'duration', amount: 3, unit: 'days' }, next: null }],
      })
    ).body as { id: number };
    expect((await hope.client.post(`/api/journeys/${journey.id}/activate`)).status).toBe(200);
    const theirs = (
      await grace.client.post('/api/journeys', {
        name: 'Theirs',
        trigger: { kind: 'manual' },
        steps: [{ id: 'w', kind: 'wait', wait: { mode: 'duration', amount: 1, unit: 'days' }, next: null }],
      })
    ).body as { id: number };
    // Another church's journey is not found; a title over 200 characters is refused, naming the field.
    const foreign = await hope.client.post('/api/sms-keywords', { keyword: 'CARE', journeyId: theirs.id });
    expect(foreign.status).toBe(404);
    const long = await hope.client.post('/api/sms-keywords', { keyword: 'CARE', taskTitle: 'x'.repeat(201) });
    expect(long.status).toBe(400);
    expect(long.body.issues[0].path).toBe('taskTitle');
    const care = await hope.client.post('/api/sms-keywords', {
      keyword: 'care',
      journeyId: journey.id,
      taskTitle: 'Prayer request',
    });
    expect(care.status).toBe(201);
    expect(care.body).toMatchObject({
      keyword: 'CARE',
      journeyId: journey.id,
      journeyName: 'Prayer follow-up',
      taskTitle: 'Prayer request',
      replyText: null,
      listId: null,
    });

    // An unknown number: becomes a contact, enters the journey, and a task is made with the text.
    const params = { MessageSid: sid(), From: '+61412000099', To: HOPE_NUMBER, Body: 'Care: my mum is in hospital' };
    expect((await text(params)).status).toBe(200);
    expect((await text(params)).status).toBe(200); // Twilio retries: nothing runs twice.
    const conv = (await conversations(hope, '?search=%2B61412000099')).conversations[0]!;
    expect(conv.contactId).not.toBeNull();
    const enrolments = await app.db
      .selectFrom('journeyEnrollments')
      .select(['contactId', 'status'])
      .where('journeyId', '=', journey.id)
      .execute();
    expect(enrolments).toEqual([{ contactId: conv.contactId, status: 'active' }]);
    const tasks = (await hope.client.get('/api/tasks?status=open')).body.tasks as {
      title: string;
      notes: string;
      contact: { id: number } | null;
    }[];
    const made = tasks.filter((t) => t.title === 'Prayer request');
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ contact: { id: conv.contactId } });
    expect(made[0]!.notes).toContain('Care: my mum is in hospital');
    expect((await grace.client.get('/api/tasks?status=open')).body.tasks).toEqual([]);
    // The church's login is emailed about the task, once (the engine's 'task-notice' delivery).
    const notice = () =>
      app.db
        .selectFrom('outboxMessages')
        .select(['toAddress', 'text'])
        .where('subject', '=', 'A follow-up for you: Prayer request')
        .execute();
    for (let i = 0; i < 100 && (await notice()).length === 0; i++) await new Promise((r) => setTimeout(r, 200));
    const notices = await notice();
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toContain('You have a follow-up: Prayer request');

    // PATCH: only the fields sent; clearing every action is refused.
    const patched = await hope.client.patch(`/api/sms-keywords/${care.body.id}`, { taskTitle: null });
    expect(patched.body).toMatchObject({ journeyId: journey.id, taskTitle: null });
    const empty = await hope.client.patch(`/api/sms-keywords/${care.body.id}`, { journeyId: null });
    expect(empty.status).toBe(400);
  });
});

describe("the 'sms-inbound-process' job", () => {
  it('two workers on the same stored texts process each once, a stalled one loses nothing, a retried webhook changes nothing', async () => {
    const youth = (await grace.client.post('/api/contact-lists', { name: 'Youth 2', type: 'sms' })).body;
    await grace.client.put('/api/settings', { postalAddress: 'x' });
    const GRACE_NUMBER = '+61400888888';
    await app.db
      .updateTable('churchSettings')
      .set({ smsFromNumber: GRACE_NUMBER })
      .where('userId', '=', grace.user.id)
      .execute();
    expect(
      (
        await grace.client.post('/api/sms-keywords', {
          keyword: 'youth',
          replyText: 'See you Friday',
          listId: youth.id,
        })
      ).status,
    ).toBe(201);
    // 60 texts from 6 numbers (the same conversations again and again), one in five the keyword.
    const numbers = Array.from({ length: 6 }, (_, i) => `+6141380000${i}`);
    const texts = Array.from({ length: 60 }, (_, i) => ({
      MessageSid: sid(),
      From: numbers[i % 6]!,
      To: GRACE_NUMBER,
      Body: i % 5 === 0 ? 'Youth!' : `Message ${i}`,
    }));
    // The first ten are stored as the webhook stores them (no job asked for them): a worker takes
    // them and dies before its commit, while the rest are posted and two other workers run.
    for (const t of texts.slice(0, 10))
      expect(await receiveInboundSms(app.db, t, FROM)).toEqual({ reply: null, queued: true });
    const stalled = createDb(app.databaseUrl, { max: 1 });
    const two = [createDb(app.databaseUrl, { max: 2 }), createDb(app.databaseUrl, { max: 2 })];
    try {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let claimed!: (n: number) => void;
      const claim = new Promise<number>((r) => (claimed = r));
      const dying = stalled
        .transaction()
        .execute(async (trx) => {
          const { rows } = await sql`select id from sms_inbound_messages
            where processed_at is null and message_sid = any(${texts.slice(0, 10).map((t) => t.MessageSid)}::text[])
            for update skip locked`.execute(trx);
          claimed(rows.length);
          await held;
          throw new Error('the worker died');
        })
        .catch((err: Error) => err.message);
      expect(await claim).toBe(10);
      // All at once: the webhook writes the texts that arrive together in one statement.
      const answers = await Promise.all(texts.slice(10).map((t) => post(t)));
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      // Two workers at once, in small batches, while the third holds its rows.
      await Promise.all(
        two.map((db) =>
          processInboundTexts({ db, jobs: app.deps.jobs }, app.deps.delivery.smsFromNumber, { batchSize: 4 }),
        ),
      );
      release();
      expect(await dying).toBe('the worker died');
      await processInbound(app);
    } finally {
      await Promise.all([stalled, ...two].map((db) => db.destroy()));
    }

    const counts = async () => {
      const { rows } = await sql<{
        stored: number;
        onConversations: number;
        events: number;
        members: number;
        replies: number;
        unread: number;
      }>`
        select
          (select count(*)::int from sms_inbound_messages where to_number = ${GRACE_NUMBER}) as stored,
          (select count(*)::int from conversation_messages m join conversations c on c.id = m.conversation_id
             where c.user_id = ${grace.user.id} and c.phone_e164 = any(${numbers}::text[]) and m.direction = 'inbound') as on_conversations,
          (select count(*)::int from events e join conversations c on c.id = (e.payload->>'conversationId')::int
             where e.type = 'sms.received' and c.user_id = ${grace.user.id} and c.phone_e164 = any(${numbers}::text[])) as events,
          (select count(*)::int from contacts_in_lists where list_id = ${youth.id}) as members,
          (select count(*)::int from deliveries d join conversations c on c.id = d.conversation_id
             where c.user_id = ${grace.user.id} and c.phone_e164 = any(${numbers}::text[])) as replies,
          (select sum(unread_count)::int from conversations where user_id = ${grace.user.id} and phone_e164 = any(${numbers}::text[])) as unread`.execute(
        app.db,
      );
      return rows[0]!;
    };
    const after = await counts();
    // Each text once on its conversation, with its event; each keyword text answered once; each
    // keyword texter (an unknown number) made a contact and added to the list once.
    expect(after).toEqual({ stored: 60, onConversations: 60, events: 60, members: 6, replies: 12, unread: 60 });
    const thread = await app.db
      .selectFrom('conversationMessages as m')
      .innerJoin('conversations as c', 'c.id', 'm.conversationId')
      .select('m.body')
      .where('c.phoneE164', '=', numbers[1]!)
      .where('m.direction', '=', 'inbound')
      .orderBy('m.createdAt')
      .orderBy('m.id')
      .execute();
    // A text is dated when it came, whichever worker processed it: the two the dead worker held
    // (stored first) come first, though they were processed last; then the ones posted at once.
    const expected = texts.filter((t) => t.From === numbers[1]).map((t) => t.Body);
    expect(thread.map((m) => m.body).slice(0, 2)).toEqual(['Message 1', 'Message 7']);
    expect(thread.map((m) => m.body).sort()).toEqual(expected.sort());

    // Twilio retries every one of them, twice each, all at once: nothing is stored or done again.
    const retried = await Promise.all([...texts, ...texts].map((t) => post(t)));
    expect(retried.map((a) => a.status)).toEqual(retried.map(() => 200));
    await processInbound(app);
    expect(await counts()).toEqual(after);
  });
});

describe('GET/PUT /api/conversation-digest', () => {
  it("is each login's own setting: off by default, hourly or daily; anything else is 400", async () => {
    expect((await grace.client.get('/api/conversation-digest')).body).toEqual({ frequency: 'off' });
    const set = await grace.client.put('/api/conversation-digest', { frequency: 'daily' });
    expect(set.status).toBe(200);
    expect((await grace.client.get('/api/conversation-digest')).body).toEqual({ frequency: 'daily' });
    expect((await hope.client.get('/api/conversation-digest')).body).toEqual({ frequency: 'off' });
    const bad = await grace.client.put('/api/conversation-digest', { frequency: 'weekly' });
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0]).toMatchObject({ path: 'frequency', message: 'Choose off, hourly or daily' });
    expect((await new HttpClient(app.url).get('/api/conversation-digest')).status).toBe(401);
  });
});
