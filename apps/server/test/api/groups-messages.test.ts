import { afterAll, describe, expect, it } from 'vitest';
import { twilioSignature } from '@lampstand/api/server';
import { addContact, registerChurch, startTestApp } from '../helpers/test-app.js';
import { giveHandle, signInToPortal } from '../helpers/portal.js';
import { startFakeTwilio } from '../helpers/fake-twilio.js';
import { processInbound } from '../helpers/inbound.js';

// A leader messages their group from the portal (and staff from the group's page): email or text,
// through the one delivery engine and its contact rule, under the leader's name; a reply to the
// text reaches the church's conversations. Another group's id is 404.
const SID = 'AC00000000000000000000000000000048';
const TOKEN = 'test-auth-token-48';
const FROM = '+61400999048';
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
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
const handle = await giveHandle(app.db, grace.user.id, 'grace-messages');
const base = `/c/${handle}/me`;
const g = grace.client;

const lydia = await addContact(g, { firstName: 'Lydia', lastName: 'Dye', email: 'lydia.gm@example.org' });
const tom = await addContact(g, {
  firstName: 'Tom',
  lastName: 'Reed',
  email: 'tom.gm@example.org',
  phone: '+61412480001',
});
const ann = await addContact(g, {
  firstName: 'Ann',
  lastName: 'Lee',
  email: 'ann.gm@example.org',
  phone: '+61412480002',
});
const nat = await addContact(g, { firstName: 'Nat', lastName: 'Noemail', phone: '+61412480003' });
const paul = await addContact(g, { firstName: 'Paul', lastName: 'Tent', email: 'paul.gm@example.org' });
// Nat has no email address.
await app.db.updateTable('contacts').set({ email: null }).where('id', '=', nat.id).execute();
// Ann unsubscribed from email (the contact rule's consent for an operational message).
await app.db.updateTable('contacts').set({ emailConsent: 'unsubscribed' }).where('id', '=', ann.id).execute();
const mine = (
  await g.post('/api/groups', { name: 'Tuesday Night', frequency: 'weekly', weekday: 2, leaderContactIds: [lydia.id] })
).body;
const other = (
  await g.post('/api/groups', { name: 'Men at Dawn', frequency: 'by_arrangement', leaderContactIds: [paul.id] })
).body;
await g.post(`/api/groups/${mine.id}/members`, { contactIds: [tom.id, ann.id, nat.id] });
const hopeGroup = (await hope.client.post('/api/groups', { name: 'Hope Group', frequency: 'by_arrangement' })).body;

const leader = await signInToPortal(app.db, app.url, base, 'lydia.gm@example.org');
const csrf = await leader.csrf(`${base}/groups`);

/** The group messages' deliveries once the engine has sent or skipped each one. */
async function delivered(channel: 'email' | 'sms') {
  const until = Date.now() + 30_000;
  for (;;) {
    const rows = await app.db
      .selectFrom('deliveries')
      .select(['address', 'status', 'lastError', 'contactId'])
      .where('kind', '=', 'group-message')
      .where('channel', '=', channel)
      .orderBy('id')
      .execute();
    if (rows.length > 0 && rows.every((r) => r.status !== 'pending' && r.status !== 'sending')) return rows;
    if (Date.now() > until) throw new Error(`still waiting: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("a leader's message to their group", () => {
  it('emails the members under the leader’s name; a member without email consent is skipped with the reason', async () => {
    const page = await leader.get(`${base}/groups/${mine.id}`);
    expect(page.text).toContain('<h2 id="message">Message the group</h2>');
    const res = await leader.post(`${base}/groups/${mine.id}/message`, {
      csrf,
      channel: 'email',
      subject: 'No meeting next week',
      body: 'Hello all,\n\nWe take a break next Tuesday.',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${base}/groups/${mine.id}?done=message#message`);
    const rows = await delivered('email');
    // Tom and Ann (Nat has no email; Lydia sent it).
    expect(rows.map((r) => [r.address, r.status, r.lastError])).toEqual([
      ['tom.gm@example.org', 'sent', null],
      ['ann.gm@example.org', 'failed', 'Skipped: unsubscribed from email'],
    ]);
    const mail = await app.db
      .selectFrom('outboxMessages')
      .select(['fromAddress', 'subject', 'text', 'headers'])
      .where('toAddress', '=', 'tom.gm@example.org')
      .executeTakeFirstOrThrow();
    expect(mail.fromAddress).toMatch(/^"Lydia Dye" </);
    expect(mail.subject).toBe('No meeting next week');
    expect(mail.text).toContain('We take a break next Tuesday.');
    expect(mail.text).toContain('You are getting this as a member of Tuesday Night at Grace Church.');
    expect(JSON.stringify(mail.headers)).toContain('lydia.gm@example.org');
    const stored = await app.db
      .selectFrom('groupMessages')
      .select(['senderName', 'senderContactId', 'userId'])
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ senderName: 'Lydia Dye', senderContactId: lydia.id, userId: grace.user.id });
  });

  it('texts the members with the leader’s name, and a reply reaches the church’s conversations', async () => {
    const res = await leader.post(`${base}/groups/${mine.id}/message`, {
      csrf,
      channel: 'sms',
      body: 'Bring a plate on Tuesday!',
    });
    expect(res.status).toBe(303);
    const rows = await delivered('sms');
    expect(rows.map((r) => [r.address, r.status])).toEqual([
      ['+61412480001', 'sent'],
      ['+61412480002', 'sent'],
      ['+61412480003', 'sent'],
    ]);
    const sent = twilio.requests.filter((m) => m.To === '+61412480001');
    expect(sent.map((m) => m.Body)).toEqual(['Lydia Dye (Tuesday Night): Bring a plate on Tuesday!']);
    // Tom answers on the platform's number: the church that texted him has the conversation.
    const params = { MessageSid: 'SM' + '48'.repeat(16), From: '+61412480001', To: FROM, Body: 'I will bring cake' };
    const path = '/api/twilio/inbound';
    const reply = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(TOKEN, `${PUBLIC_URL}${path}`, params),
      },
      body: new URLSearchParams(params),
    });
    expect(reply.status).toBe(200);
    await processInbound(app);
    const convs = (await g.get('/api/conversations')).body.conversations as {
      id: number;
      phone: string;
      name: string;
    }[];
    const conv = convs.find((c) => c.phone === '+61412480001')!;
    expect(conv).toMatchObject({ name: 'Tom Reed' });
    // One timeline: the leader's text, then Tom's reply.
    const thread = (await g.get(`/api/conversations/${conv.id}/messages`)).body.messages;
    expect(thread.map((m: { kind: string; body: string }) => [m.kind, m.body])).toEqual([
      ['group', 'Lydia Dye (Tuesday Night): Bring a plate on Tuesday!'],
      ['text', 'I will bring cake'],
    ]);
    expect(thread[0].groupName).toBe('Tuesday Night');
    expect((await hope.client.get('/api/conversations')).body.conversations).toHaveLength(0);
  });

  it('answers worded errors naming the field, and 404 for a group the session does not lead', async () => {
    const noSubject = await leader.post(`${base}/groups/${mine.id}/message`, { csrf, channel: 'email', body: 'Hi' });
    expect(noSubject.status).toBe(400);
    expect(noSubject.text).toContain('Subject is required for an email');
    expect(noSubject.text).toContain('aria-describedby="msg-subject-error"');
    for (const id of [other.id, hopeGroup.id, 999_999]) {
      const res = await leader.post(`${base}/groups/${id}/message`, { csrf, channel: 'sms', body: 'Hello' });
      expect(res.status, `group ${id}`).toBe(404);
    }
    const before = await app.db.selectFrom('groupMessages').select('id').execute();
    expect(before).toHaveLength(2);
  });

  it('staff message a group as the church over REST; another church’s group is 404', async () => {
    const res = await g.post(`/api/groups/${mine.id}/messages`, {
      channel: 'email',
      subject: 'Picnic',
      body: 'Sunday at 1',
    });
    expect(res.status).toBe(201);
    // Lydia leads it and is a member too: staff reach everyone with an address.
    expect(res.body).toMatchObject({ queued: 3, withoutAddress: ['Nat Noemail'] });
    const bad = await g.post(`/api/groups/${mine.id}/messages`, { channel: 'fax', body: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0]).toMatchObject({ path: 'channel' });
    const theirs = await g.post(`/api/groups/${hopeGroup.id}/messages`, { channel: 'sms', body: 'Hello' });
    expect(theirs.status).toBe(404);
    const mail = app.db
      .selectFrom('outboxMessages')
      .select('fromAddress')
      .where('subject', '=', 'Picnic')
      .where('toAddress', '=', 'lydia.gm@example.org');
    await expect.poll(async () => (await mail.execute()).length, { timeout: 30_000 }).toBe(1);
    expect((await mail.executeTakeFirstOrThrow()).fromAddress).toMatch(/^"Grace Church" </);
  });
});
