import { afterAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import net from 'node:net';
import { dkimSign } from 'mailauth/lib/dkim/sign';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { startSmtpSink } from '../helpers/smtp-sink.js';
import { startLocalDns } from '../helpers/local-dns.js';

// Campaign mail carries a VERP return path; bounce DSNs (RFC 3464) and ARF
// complaints (RFC 5965) sent by SMTP to the bounce receiver suppress the address; every send skips
// suppressed addresses, and the count before sending says how many.
const sink = await startSmtpSink({ ignoreTo: /^office_/ });
// Complaint reports count only when a feedback-loop sender (FEEDBACK_LOOP_SENDERS) authenticates
// them: its DKIM key is published on a local DNS server (DNS_SERVER).
const dns = await startLocalDns();
afterAll(async () => {
  await sink.close();
  await dns.close();
});
const FBL = 'fbl.mailbox.test';
const fblKey = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
dns.set(`s1._domainkey.${FBL}`, 'TXT', [
  `v=DKIM1; k=rsa; p=${fblKey.publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`,
]);
const app = await startTestApp(
  {
    emailSmtpUrl: sink.url,
    emailFrom: 'Lampstand <news@lampstand.test>',
    publicUrl: 'http://lampstand.test',
    bounceSmtpPort: 0,
    bounceDomain: 'bounces.lampstand.test',
    dnsServer: dns.server,
    feedbackLoopSenders: [FBL],
  },
  { retryBaseSeconds: 1 },
);
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
await grace.client.put('/api/settings', { postalAddress: '1 Church St' });
const bouncePort = app.server.bouncePort()!;

/** A mail system handing a message to the receiver: plain SMTP on loopback; rejects with a refusal's reply. */
function smtpSend(to: string, raw: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(bouncePort, '127.0.0.1');
    const steps = [
      'EHLO mx.example.org',
      'MAIL FROM:<>',
      `RCPT TO:<${to}>`,
      'DATA',
      `${raw.replace(/\r\n\./g, '\r\n..')}\r\n.`,
      'QUIT',
    ];
    let buffer = '';
    socket.on('data', (d: Buffer) => {
      buffer += d.toString('utf8');
      // A complete reply: its last line is 'NNN text' (not 'NNN-text').
      const lines = buffer.split('\r\n').filter(Boolean);
      const last = lines[lines.length - 1];
      if (!last || !/^\d{3} /.test(last) || !buffer.endsWith('\r\n')) return;
      buffer = '';
      if (/^[45]/.test(last)) {
        socket.end();
        return reject(new Error(last));
      }
      const next = steps.shift();
      if (next === undefined) return socket.end(() => resolve());
      socket.write(`${next}\r\n`);
    });
    socket.on('error', reject);
    socket.on('close', () => resolve());
  });
}

let n = 0;
async function person(email: string) {
  n++;
  return (
    await grace.client.post('/api/contacts', {
      firstName: `P${n}`,
      lastName: 'X',
      email,
      phone: `+6141280${String(n).padStart(4, '0')}`,
    })
  ).body as { id: number };
}
async function send(listId: number) {
  const c = (
    await grace.client.post('/api/email-campaigns', {
      name: `News ${++n}`,
      subject: 'News',
      content: '<p>Hi</p>',
      listIds: [listId],
    })
  ).body;
  const before = sink.messages.length;
  const res = await grace.client.post(`/api/email-campaigns/${c.id}/send`);
  expect(res.status).toBe(200);
  await sink.waitFor(before + res.body.recipientCount);
  return { campaign: c, messages: sink.messages.slice(before) };
}

/** A delivery status notification as a mail system writes it. */
function dsn(to: string, action: string, status: string, diagnostic: string) {
  return [
    'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
    'Subject: Undelivered Mail Returned to Sender',
    '',
    '--b1',
    'Content-Type: text/plain',
    '',
    'I am sorry to have to inform you that your message could not be delivered.',
    '--b1',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.example.org',
    '',
    `Final-Recipient: rfc822; ${to}`,
    `Action: ${action}`,
    `Status: ${status}`,
    `Diagnostic-Code: smtp; ${diagnostic}`,
    '',
    '--b1--',
    '',
  ].join('\r\n');
}
/** An ARF complaint report quoting the original message's headers, from `from`. */
function arf(to: string, messageId: string, from = `Feedback Loop <reports@${FBL}>`) {
  return [
    `From: ${from}`,
    'To: fbl@bounces.lampstand.test',
    'Date: Sun, 29 Nov 2026 01:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=feedback-report; boundary="b2"',
    'Subject: Complaint',
    '',
    '--b2',
    'Content-Type: text/plain',
    '',
    'This is an email abuse report.',
    '--b2',
    'Content-Type: message/feedback-report',
    '',
    'Feedback-Type: abuse',
    'User-Agent: ExampleFBL/1.0',
    'Version: 1',
    `Original-Rcpt-To: ${to}`,
    '',
    '--b2',
    'Content-Type: text/rfc822-headers',
    '',
    `Message-ID: ${messageId}`,
    'Subject: News',
    '',
    '--b2--',
    '',
  ].join('\r\n');
}
const report = (to: string, raw: string) => smtpSend(to, raw);

/** `raw` DKIM-signed by `domain` with `key` (selector s1). */
async function signed(raw: string, domain = FBL, key: crypto.KeyObject = fblKey.privateKey) {
  const signature = { signingDomain: domain, selector: 's1', privateKey: key.export({ type: 'pkcs8', format: 'pem' }) };
  // mailauth signs what `signatureData` lists (the top-level fields only satisfy its types).
  const { signatures } = await dkimSign(raw, { ...signature, signatureData: [signature] });
  expect(signatures).toMatch(/^DKIM-Signature:/);
  return signatures + raw;
}

async function suppressions(client = grace.client) {
  const res = await client.get('/api/suppressions');
  expect(res.status).toBe(200);
  return res.body as {
    id: number;
    email: string;
    reason: string;
    reasonText: string;
    detail: string;
    campaign: { name: string } | null;
  }[];
}

describe('bounces and complaints', () => {
  it('a hard bounce, three soft bounces and a complaint suppress; the next send skips them and says so', async () => {
    const bad = await person('Bad@Example.org');
    const soft = await person('soft@example.org');
    const angry = await person('angry@example.org');
    await person('ok@example.org');
    const list = (await grace.client.post('/api/contact-lists', { name: 'Everyone', type: 'email' })).body;
    for (const c of [bad, soft, angry]) await grace.client.post(`/api/contact-lists/${list.id}/contacts/${c.id}`);
    const okId = (await grace.client.get('/api/contacts/search?search=ok%40example.org')).body.items[0].id;
    await grace.client.post(`/api/contact-lists/${list.id}/contacts/${okId}`);

    const first = await send(list.id);
    expect(first.messages).toHaveLength(4);
    // Every message's envelope sender is its own VERP address.
    const verp = new Map(first.messages.map((m) => [m.envelopeTo[0]!.toLowerCase(), m.envelopeFrom]));
    for (const from of verp.values()) expect(from).toMatch(/^bounces\+[0-9a-f]{48,64}@bounces\.lampstand\.test$/);
    expect(new Set(verp.values()).size).toBe(4);

    // A hard bounce (5.1.1) to the VERP address: suppressed at once, with an event on the person.
    await report(verp.get('bad@example.org')!, dsn('bad@example.org', 'failed', '5.1.1', '550 5.1.1 No such user'));
    let list1 = await suppressions();
    expect(list1).toEqual([
      expect.objectContaining({
        email: 'bad@example.org',
        reason: 'hard_bounce',
        reasonText: 'Hard bounce',
        campaign: { id: first.campaign.id, name: first.campaign.name },
      }),
    ]);
    expect(list1[0]!.detail).toContain('5.1.1');
    const badEvents = (await grace.client.get(`/api/contacts/${bad.id}/events`)).body.events as {
      type: string;
      data: { reason?: string };
    }[];
    expect(badEvents.find((e) => e.type === 'email.bounced')!.data.reason).toContain('Hard bounce: 5.1.1');

    // Soft bounces: two are recorded, the third within 30 days suppresses.
    const softTo = verp.get('soft@example.org')!;
    await report(softTo, dsn('soft@example.org', 'delayed', '4.2.2', '452 Mailbox full'));
    await report(softTo, dsn('soft@example.org', 'failed', '4.2.2', '452 Mailbox full'));
    expect((await suppressions()).map((s) => s.email)).toEqual(['bad@example.org']);
    await report(softTo, dsn('soft@example.org', 'failed', '4.2.2', '452 Mailbox full'));
    expect((await suppressions()).find((s) => s.email === 'soft@example.org')).toMatchObject({
      reason: 'soft_bounces',
    });

    // A complaint by ARF to the feedback-loop address, naming the message by its Message-ID. Anyone
    // can write one: unsigned, signed by another domain, signed with another key, or
    // from another sender with the feedback loop's signature, it changes nothing.
    const angryMessage = first.messages.find((m) => m.envelopeTo[0] === 'angry@example.org')!;
    const complaint = (from?: string) => arf('angry@example.org', angryMessage.parsed.messageId!, from);
    const attackerKey = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    dns.set('s1._domainkey.attacker.test', 'TXT', [
      `v=DKIM1; k=rsa; p=${attackerKey.publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`,
    ]);
    const forged = [
      complaint(),
      await signed(complaint('Reports <reports@attacker.test>'), 'attacker.test', attackerKey.privateKey),
      await signed(complaint(), FBL, attackerKey.privateKey),
      await signed(complaint('Reports <reports@attacker.test>')),
    ];
    for (const raw of forged) await report('fbl@bounces.lampstand.test', raw);
    expect((await suppressions()).map((s) => s.email)).not.toContain('angry@example.org');
    expect((await grace.client.get(`/api/contacts/${angry.id}`)).body.consent.email.status).not.toBe('unsubscribed');
    // The feedback loop's own report, DKIM-signed by it: suppressed and unsubscribed.
    await report('fbl@bounces.lampstand.test', await signed(complaint()));
    expect((await suppressions()).find((s) => s.email === 'angry@example.org')).toMatchObject({ reason: 'complaint' });
    const angryContact = (await grace.client.get(`/api/contacts/${angry.id}`)).body;
    expect(angryContact.consent.email.status).toBe('unsubscribed');
    const angryEvents = (await grace.client.get(`/api/contacts/${angry.id}/events`)).body.events as { type: string }[];
    expect(angryEvents.map((e) => e.type)).toEqual(expect.arrayContaining(['email.complained', 'consent.changed']));
    // A message nobody sent (a delivered DSN, an auto-reply) changes nothing.
    await report(verp.get('ok@example.org')!, dsn('ok@example.org', 'delivered', '2.0.0', '250 OK'));
    expect(await suppressions()).toHaveLength(3);
    // Another address at the receiver is refused.
    await expect(smtpSend('someone@bounces.lampstand.test', 'Subject: x\r\n\r\nx')).rejects.toThrow(/550/);

    // Before sending: the count says how many are skipped; the send skips them.
    const count = await grace.client.post('/api/email-campaigns/recipient-count', { listIds: [list.id] });
    expect(count.body).toMatchObject({ recipients: 1, suppressed: 3 });
    const second = await send(list.id);
    expect(second.messages.map((m) => m.envelopeTo[0])).toEqual(['ok@example.org']);

    // Removing one (another church's is 404) puts the address back in the next send.
    const hard = (await suppressions()).find((s) => s.email === 'bad@example.org')!;
    expect((await hope.client.delete(`/api/suppressions/${hard.id}`)).status).toBe(404);
    expect(await suppressions(hope.client)).toEqual([]);
    expect((await grace.client.delete(`/api/suppressions/${hard.id}`)).status).toBe(200);
    expect((await grace.client.delete(`/api/suppressions/${hard.id}`)).status).toBe(404);
    list1 = await suppressions();
    expect(list1.map((s) => s.email).sort()).toEqual(['angry@example.org', 'soft@example.org']);
    const after = await grace.client.post('/api/email-campaigns/recipient-count', { listIds: [list.id] });
    expect(after.body).toMatchObject({ recipients: 2, suppressed: 2 });
    expect((await new HttpClient(app.url).get('/api/suppressions')).status).toBe(401);
  });
});

describe('the count before other sends', () => {
  it('says how many addresses of chosen contacts, a list, team members or a journey are suppressed', async () => {
    const a = await person('gone1@example.org');
    const b = await person('Gone2@example.org');
    const c = await person('fine@example.org');
    for (const email of ['gone1@example.org', 'gone2@example.org'])
      await app.db
        .insertInto('emailSuppressions')
        .values({ userId: grace.user.id, email, reason: 'hard_bounce', detail: '5.1.1 User unknown' })
        .execute();
    const list = (await grace.client.post('/api/contact-lists', { name: 'Newcomers', type: 'email' })).body;
    for (const p of [a, b, c]) await grace.client.post(`/api/contact-lists/${list.id}/contacts/${p.id}`);

    const count = (body: unknown, client = grace.client) => client.post('/api/suppressions/count', body);
    expect((await count({ listId: list.id })).body).toEqual({ suppressed: 2 });
    expect((await count({ contactIds: [a.id, c.id] })).body).toEqual({ suppressed: 1 });
    const member = (
      await grace.client.post('/api/service-planner/members', { name: 'Gone One', email: 'gone1@example.org' })
    ).body as { id: number };
    expect((await count({ memberIds: [member.id] })).body).toEqual({ suppressed: 1 });
    // Another church's ids: its list is not found, its contacts and members count as nobody.
    expect((await count({ listId: list.id }, hope.client)).status).toBe(404);
    expect((await count({ contactIds: [a.id, b.id] }, hope.client)).body).toEqual({ suppressed: 0 });
    expect((await count({ memberIds: [member.id] }, hope.client)).body).toEqual({ suppressed: 0 });
    const none = await count({});
    expect(none.status).toBe(400);
    expect(none.body.issues?.[0]?.path).toBe('contactIds');
    expect((await count({ listId: 'x' })).body.issues?.[0]?.path).toBe('listId');

    // A journey with an email step says it on activation: its trigger's list holds two of them.
    const journey = (
      await grace.client.post('/api/journeys', {
        name: 'Welcome',
        trigger: { kind: 'list_added', listId: list.id },
        steps: [{ id: 'hi', kind: 'email', name: 'Hi', subject: 'Hi', content: '<p>Hi</p>', next: null }],
      })
    ).body as { id: number };
    const check = await grace.client.get(
      `/trpc/journeys.activationCheck?input=${encodeURIComponent(JSON.stringify({ id: journey.id }))}`,
    );
    expect(check.body.result.data).toMatchObject({ reach: 3, suppressed: 2, problems: [] });
    // Without an email step there is nothing to skip.
    const tasks = (
      await grace.client.post('/api/journeys', {
        name: 'Call',
        trigger: { kind: 'list_added', listId: list.id },
        steps: [{ id: 't', kind: 'task', title: 'Call', notes: '', dueInDays: 1, next: null }],
      })
    ).body as { id: number };
    const quiet = await grace.client.get(
      `/trpc/journeys.activationCheck?input=${encodeURIComponent(JSON.stringify({ id: tasks.id }))}`,
    );
    expect(quiet.body.result.data.suppressed).toBeUndefined();
    expect(quiet.body.result.data.reach).toBe(3);
  });
});
