import { afterAll, describe, expect, it } from 'vitest';
import { KEYWORDS_NEED_OWN_NUMBER } from '@lampstand/api/schemas/sms-number';
import { registerChurch, startTestApp } from '../helpers/test-app.js';
import { startFakeTwilio } from '../helpers/fake-twilio.js';
import { postAsTwilio, processInbound } from '../helpers/inbound.js';

// One church per conversation. A church's own number (Settings → Texting), and the
// shared platform number reaching a church only when exactly one texted the person (or they chose).
const SID = 'AC00000000000000000000000000000043';
const TOKEN = 'platform-token-43';
const SHARED = '+61400943000';
const PUBLIC_URL = 'http://lampstand.test';
// Grace's own Twilio account, with its own number and a Messaging Service.
const GRACE_SID = 'AC11111111111111111111111111111111';
const GRACE_TOKEN = 'grace-own-token-9f3a';
const GRACE_NUMBER = '+61400943111';
const FAITH_SERVICE = 'MG22222222222222222222222222222222';
const FAITH_SID = 'AC22222222222222222222222222222222';
const FAITH_TOKEN = 'faith-own-token-77c1';
const twilio = await startFakeTwilio({
  accountSid: SID,
  authToken: TOKEN,
  accounts: [
    { accountSid: GRACE_SID, authToken: GRACE_TOKEN, numbers: [GRACE_NUMBER] },
    { accountSid: FAITH_SID, authToken: FAITH_TOKEN, services: [FAITH_SERVICE] },
  ],
});
afterAll(() => twilio.close());
const app = await startTestApp(
  {
    twilioAccountSid: SID,
    twilioAuthToken: TOKEN,
    twilioFromNumber: SHARED,
    twilioApiBaseUrl: twilio.url,
    publicUrl: PUBLIC_URL,
  },
  { retryBaseSeconds: 1 },
);
const grace = await registerChurch(app.url, 'Grace A');
const hope = await registerChurch(app.url, 'Hope B');
type Church = typeof grace;

let n = 0;
const sid = () => `SM43${(++n).toString(16).padStart(30, '0')}`;
async function person(church: Church, phone: string, firstName = 'Pat') {
  const res = await church.client.post('/api/contacts', {
    firstName,
    lastName: 'Q',
    email: `p${++n}@example.org`,
    phone,
  });
  if (res.status !== 201) throw new Error(`adding a contact failed: ${res.text}`);
  return res.body as { id: number };
}
/** The church sends a campaign text to the person (a contact on a list of their own), and it is sent. */
async function campaignTo(church: Church, contactId: number, content = 'See you Sunday') {
  const list = (await church.client.post('/api/contact-lists', { name: `L${++n}`, type: 'sms' })).body;
  await church.client.post(`/api/contact-lists/${list.id}/contacts/${contactId}`);
  const campaign = (
    await church.client.post('/api/sms-campaigns', { name: `C${n}`, content, status: 'ready', listIds: [list.id] })
  ).body;
  expect((await church.client.post(`/api/sms-campaigns/${campaign.id}/send`)).status).toBe(200);
  await expect
    .poll(async () => (await church.client.get(`/api/sms-campaigns/${campaign.id}`)).body.status, { timeout: 15_000 })
    .toBe('sent');
}
/** A text POSTed as Twilio would, signed with `signWith`, then the intake job run until done. */
async function text(params: Record<string, string>, signWith = TOKEN) {
  const res = await postAsTwilio(app, { publicUrl: PUBLIC_URL, path: '/api/twilio/inbound', params, token: signWith });
  await processInbound(app);
  return res;
}
async function thread(church: Church, phone: string): Promise<string[] | null> {
  const list = (await church.client.get('/api/conversations')).body.conversations as { id: number; phone: string }[];
  const conv = list.find((c) => c.phone === phone);
  if (!conv) return null;
  const messages = (await church.client.get(`/api/conversations/${conv.id}/messages`)).body.messages as {
    direction: string;
    body: string;
  }[];
  return messages.filter((m) => m.direction === 'inbound').map((m) => m.body);
}
const sentTo = (phone: string) => twilio.requests.filter((r) => r.To === phone);
/** What the local Twilio peer was asked to send with this body, once it has been (the engine sends in the background). */
async function sentWith(phone: string, body: string) {
  await expect.poll(() => sentTo(phone).some((r) => r.Body === body), { timeout: 15_000 }).toBe(true);
  return sentTo(phone).find((r) => r.Body === body)!;
}

describe('the shared number: one church per conversation', () => {
  it("the reproduction: B sees nothing of A's reply, B's keyword is refused, JOINA joins no list of B's", async () => {
    const phone = '+61412430001';
    const atGrace = await person(grace, phone);
    const atHope = await person(hope, phone);
    await campaignTo(grace, atGrace.id, 'Grace A: service at 10');
    await campaignTo(hope, atHope.id, 'Hope B: lunch at 12');

    // B's copy of A's keyword: refused on the shared number, naming the field and why.
    const privateList = (await hope.client.post('/api/contact-lists', { name: 'Private', type: 'sms' })).body;
    const keyword = await hope.client.post('/api/sms-keywords', {
      keyword: 'JOINA',
      replyText: 'Welcome to Hope B',
      listId: privateList.id,
    });
    expect(keyword.status).toBe(400);
    expect(keyword.body.issues[0]).toEqual({ path: 'keyword', message: KEYWORDS_NEED_OWN_NUMBER });
    expect((await hope.client.get('/api/sms-keywords')).body).toEqual([]);

    // Two churches texted the person: the reply is held and one question asked, naming both.
    expect(
      (await text({ MessageSid: sid(), From: phone, To: SHARED, Body: 'Running late — meant for Grace A' })).status,
    ).toBe(200);
    expect(await thread(grace, phone)).toBeNull();
    expect(await thread(hope, phone)).toBeNull();
    const question = 'Which church is your text for? Reply 1 for Grace A, 2 for Hope B.';
    expect(sentTo(phone).filter((r) => r.Body === question)).toEqual([
      expect.objectContaining({ From: SHARED, account: SID }),
    ]);
    // Still unanswered: held too, and no second question.
    await text({ MessageSid: sid(), From: phone, To: SHARED, Body: 'JOINA please' });
    expect(await thread(grace, phone)).toBeNull();
    expect(await thread(hope, phone)).toBeNull();
    expect(sentTo(phone).filter((r) => r.Body === question)).toHaveLength(1);

    // '1': both held texts reach Grace A only, in the order they came; later replies too.
    await text({ MessageSid: sid(), From: phone, To: SHARED, Body: '1' });
    expect(await thread(grace, phone)).toEqual(['Running late — meant for Grace A', 'JOINA please']);
    expect(await thread(hope, phone)).toBeNull();
    await text({ MessageSid: sid(), From: phone, To: SHARED, Body: 'See you there' });
    expect(await thread(grace, phone)).toEqual(['Running late — meant for Grace A', 'JOINA please', 'See you there']);
    expect(await thread(hope, phone)).toBeNull();

    // JOINA joined no list of Hope's and got no reply from it.
    const members = (await hope.client.get(`/api/contact-lists/${privateList.id}/contacts`)).body;
    expect(JSON.stringify(members)).not.toContain(phone);
    expect(sentTo(phone).some((r) => r.Body === 'Welcome to Hope B')).toBe(false);

    // Hope texts the person after the choice: the next reply is asked about again, 2 is Hope.
    await campaignTo(hope, atHope.id, 'Hope B: tonight');
    await text({ MessageSid: sid(), From: phone, To: SHARED, Body: 'Which one was that?' });
    expect(await thread(hope, phone)).toBeNull();
    expect(sentTo(phone).filter((r) => r.Body === question)).toHaveLength(2);
    await text({ MessageSid: sid(), From: phone, To: SHARED, Body: '2' });
    expect(await thread(hope, phone)).toEqual(['Which one was that?']);
    expect(await thread(grace, phone)).toEqual(['Running late — meant for Grace A', 'JOINA please', 'See you there']);
  });

  it('exactly one church texted the person: the reply reaches it with no question', async () => {
    const phone = '+61412430002';
    const c = await person(hope, phone);
    await campaignTo(hope, c.id);
    await text({ MessageSid: sid(), From: phone, To: SHARED, Body: 'Thanks Hope' });
    expect(await thread(hope, phone)).toEqual(['Thanks Hope']);
    expect(await thread(grace, phone)).toBeNull();
    expect(sentTo(phone).filter((r) => r.Body.startsWith('Which church'))).toEqual([]);
  });

  it("STOP on the shared number stops every church's texts to the person, even with a question pending", async () => {
    const phone = '+61412430003';
    const atGrace = await person(grace, phone);
    const atHope = await person(hope, phone);
    await campaignTo(grace, atGrace.id);
    await campaignTo(hope, atHope.id);
    await text({ MessageSid: sid(), From: phone, To: SHARED, Body: 'Who is this?' });
    const stop = await text({ MessageSid: sid(), From: phone, To: SHARED, Body: 'STOP' });
    expect(stop.body).toContain('You are unsubscribed from Grace A, Hope B texts');
    for (const [church, contact] of [
      [grace, atGrace],
      [hope, atHope],
    ] as const)
      expect((await church.client.get(`/api/contacts/${contact.id}`)).body.consent.sms.status).toBe('unsubscribed');
    // The held text still reaches no inbox.
    expect((await thread(grace, phone)) ?? []).not.toContain('Who is this?');
    expect((await thread(hope, phone)) ?? []).not.toContain('Who is this?');
  });
});

describe('Settings → Texting: a church of its own number', () => {
  it('is checked with Twilio on save; the token is sealed and never answered', async () => {
    const put = (body: Record<string, unknown>) => grace.client.put('/api/settings/texting', body);
    expect((await grace.client.get('/api/settings/texting')).body).toMatchObject({
      mode: 'shared',
      sharedNumber: SHARED,
      fromNumber: null,
      authTokenHint: null,
      inboundWebhookUrl: `${PUBLIC_URL}/api/twilio/inbound`,
    });
    const wrongToken = await put({ fromNumber: GRACE_NUMBER, accountSid: GRACE_SID, authToken: 'wrong' });
    expect(wrongToken.status).toBe(400);
    expect(wrongToken.body.issues[0]).toEqual({
      path: 'authToken',
      message: 'Twilio refused this Account SID and Auth Token: check both',
    });
    const notTheirs = await put({ fromNumber: '+61400943999', accountSid: GRACE_SID, authToken: GRACE_TOKEN });
    expect(notTheirs.status).toBe(400);
    expect(notTheirs.body.issues[0]).toEqual({
      path: 'fromNumber',
      message: 'Twilio has no such number on this account',
    });
    const both = await put({ accountSid: GRACE_SID, authToken: GRACE_TOKEN });
    expect(both.status).toBe(400);
    expect(both.body.issues[0]).toEqual({
      path: 'fromNumber',
      message: 'Enter either a number or a Messaging Service SID',
    });

    const saved = await put({ fromNumber: GRACE_NUMBER, accountSid: GRACE_SID, authToken: GRACE_TOKEN });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      mode: 'own',
      fromNumber: GRACE_NUMBER,
      accountSid: GRACE_SID,
      authTokenHint: '…9f3a',
    });
    expect(saved.text).not.toContain(GRACE_TOKEN);
    expect((await grace.client.get('/api/settings/texting')).text).not.toContain(GRACE_TOKEN);
    const row = await app.db
      .selectFrom('churchSettings')
      .select('smsAuthToken')
      .where('userId', '=', grace.user.id)
      .executeTakeFirstOrThrow();
    expect(row.smsAuthToken).toMatch(/^enc:v1:/);
    expect(row.smsAuthToken).not.toContain(GRACE_TOKEN);
    // Saved again without the token: the saved one is kept for the same account.
    expect((await put({ fromNumber: GRACE_NUMBER, accountSid: GRACE_SID })).status).toBe(200);
    // Another church cannot claim the number.
    const taken = await hope.client.put('/api/settings/texting', {
      fromNumber: GRACE_NUMBER,
      accountSid: GRACE_SID,
      authToken: GRACE_TOKEN,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.issues[0]).toEqual({ path: 'fromNumber', message: 'This number is used by another church' });
  });

  it('routes texts to its number to it alone, checked with its own token; keywords and replies work on it', async () => {
    const phone = '+61412430004';
    const atGrace = await person(grace, phone, 'Ivy');
    const atHope = await person(hope, phone, 'Ivy');
    await campaignTo(hope, atHope.id);
    // Grace's campaign goes from its own number, through its own account.
    await campaignTo(grace, atGrace.id, 'From Grace own');
    expect(sentTo(phone).find((r) => r.Body === 'From Grace own')).toMatchObject({
      From: GRACE_NUMBER,
      account: GRACE_SID,
    });

    const youth = (await grace.client.post('/api/contact-lists', { name: 'Youth A', type: 'sms' })).body;
    const joina = await grace.client.post('/api/sms-keywords', {
      keyword: 'JOINA',
      replyText: 'Welcome to Grace A youth',
      listId: youth.id,
    });
    expect(joina.status).toBe(201);

    // Signed with the platform's token (or anyone else's): refused, nothing stored.
    const forged = await text({ MessageSid: sid(), From: phone, To: GRACE_NUMBER, Body: 'forged' }, TOKEN);
    expect(forged.status).toBe(403);
    const hopeForged = await text(
      { MessageSid: sid(), From: phone, To: GRACE_NUMBER, Body: 'forged', AccountSid: FAITH_SID },
      FAITH_TOKEN,
    );
    expect(hopeForged.status).toBe(403);

    const ok = await text(
      { MessageSid: sid(), From: phone, To: GRACE_NUMBER, Body: 'JOINA please', AccountSid: GRACE_SID },
      GRACE_TOKEN,
    );
    expect(ok.status).toBe(200);
    expect(await thread(grace, phone)).toEqual(['JOINA please']);
    expect(await thread(hope, phone)).toBeNull();
    const members = (await grace.client.get(`/api/contact-lists/${youth.id}/contacts`)).body;
    expect(JSON.stringify(members)).toContain(phone);
    const reply = await sentWith(phone, 'Welcome to Grace A youth');
    expect(reply).toMatchObject({ From: GRACE_NUMBER, account: GRACE_SID });

    // A staff reply in the conversation goes from Grace's number too; its status callback,
    // signed by Grace's account, is accepted.
    const conv = (
      (await grace.client.get('/api/conversations')).body.conversations as { id: number; phone: string }[]
    ).find((c) => c.phone === phone)!;
    expect((await grace.client.post(`/api/conversations/${conv.id}/messages`, { body: 'Hi Ivy' })).status).toBe(201);
    const staff = await sentWith(phone, 'Hi Ivy');
    expect(staff).toMatchObject({ From: GRACE_NUMBER, account: GRACE_SID });
    const status = { MessageSid: staff.sid, MessageStatus: 'delivered', AccountSid: GRACE_SID };
    const post = (token: string) =>
      postAsTwilio(app, { publicUrl: PUBLIC_URL, path: '/api/sms/status', params: status, token });
    expect((await post(GRACE_TOKEN)).status).toBe(204);
    expect((await post('not-a-token')).status).toBe(403);

    // STOP from someone Grace does not know, to Grace's number: the answer names Grace.
    const stop = await text(
      { MessageSid: sid(), From: '+61412430099', To: GRACE_NUMBER, Body: 'STOP', AccountSid: GRACE_SID },
      GRACE_TOKEN,
    );
    expect(stop.body).toContain('You are unsubscribed from Grace A texts');
  });

  it('a Messaging Service of its own: texts go through it, texts that came through it reach the church', async () => {
    const faith = await registerChurch(app.url, 'Faith C');
    const saved = await faith.client.put('/api/settings/texting', {
      messagingServiceSid: FAITH_SERVICE,
      accountSid: FAITH_SID,
      authToken: FAITH_TOKEN,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ mode: 'own', fromNumber: null, messagingServiceSid: FAITH_SERVICE });
    const phone = '+61412430005';
    const c = await person(faith, phone);
    await campaignTo(faith, c.id, 'Faith news');
    expect(sentTo(phone).find((r) => r.Body === 'Faith news')).toMatchObject({
      MessagingServiceSid: FAITH_SERVICE,
      account: FAITH_SID,
    });
    const params = { MessageSid: sid(), From: phone, To: '+61400943555', MessagingServiceSid: FAITH_SERVICE };
    expect((await text({ ...params, Body: 'Hello Faith' }, FAITH_TOKEN)).status).toBe(200);
    expect(await thread(faith, phone)).toEqual(['Hello Faith']);
    // Back to the shared number: the keywords are refused again.
    expect((await faith.client.delete('/api/settings/texting')).body).toMatchObject({
      mode: 'shared',
      accountSid: null,
    });
    const refused = await faith.client.post('/api/sms-keywords', { keyword: 'HI', replyText: 'Hello' });
    expect(refused.status).toBe(400);
  });
});
