import { afterAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from '@lampstand/db';
import { snsStringToSign } from '@lampstand/api/server';
import { registerChurch, startTestApp } from '../helpers/test-app.js';
import { startSmtpSink } from '../helpers/smtp-sink.js';

// Provider event webhooks. Amazon SES through SNS, each message signed with a local
// certificate (test/fixtures/sns-signing.*, a test-only key pair) served by a local HTTP server that
// stands for SNS's certificate host (SNS_CERT_URL_PREFIXES); Postmark with its basic auth. Hard
// bounces and complaints suppress at once, the third soft bounce too; a complaint unsubscribes; an
// event sent again changes nothing; unsigned or wrongly signed posts are 403 and store nothing.
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');
const signingKey = fs.readFileSync(path.join(fixtures, 'sns-signing.key'), 'utf8');
const certificate = fs.readFileSync(path.join(fixtures, 'sns-signing.crt'), 'utf8');
const otherKey = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

const subscribeVisits: string[] = [];
const snsHost = http.createServer((req, res) => {
  if (req.url === '/SimpleNotificationService-test.pem') return void res.end(certificate);
  if (req.url?.startsWith('/confirm')) {
    subscribeVisits.push(req.url);
    return void res.end('<ConfirmSubscriptionResponse/>');
  }
  res.statusCode = 404;
  res.end();
});
await new Promise<void>((r) => snsHost.listen(0, '127.0.0.1', () => r()));
const snsBase = `http://127.0.0.1:${(snsHost.address() as { port: number }).port}/`;
const sink = await startSmtpSink({ ignoreTo: /^office_/ });
afterAll(async () => {
  await sink.close();
  await new Promise((r) => snsHost.close(r));
});
const app = await startTestApp({
  emailSmtpUrl: sink.url,
  emailFrom: 'Lampstand <news@lampstand.test>',
  publicUrl: 'http://lampstand.test',
  emailEvents: {
    snsCertUrlPrefixes: [snsBase],
    snsCertAllowLoopback: true,
    sesTopicArns: ['arn:aws:sns:us-east-1:123456789012:ses-events'],
    postmarkAuth: { username: 'postmark', password: 'hook-secret' },
  },
});
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
await grace.client.put('/api/settings', { postalAddress: '1 Church St' });

let n = 0;
const people = new Map<string, number>();
/** One campaign to these addresses: their messages' Message-IDs by address. */
async function sendTo(addresses: string[]) {
  const list = (await grace.client.post('/api/contact-lists', { name: `L${++n}`, type: 'email' })).body as {
    id: number;
  };
  for (const email of addresses) {
    const c = (
      await grace.client.post('/api/contacts', {
        firstName: `P${++n}`,
        lastName: 'X',
        email,
        phone: `+6141281${String(n).padStart(4, '0')}`,
      })
    ).body as { id: number };
    people.set(email, c.id);
    await grace.client.post(`/api/contact-lists/${list.id}/contacts/${c.id}`);
  }
  const c = (
    await grace.client.post('/api/email-campaigns', {
      name: `News ${++n}`,
      subject: 'News',
      content: '<p>Hi</p>',
      listIds: [list.id],
    })
  ).body as { id: number };
  const before = sink.messages.length;
  expect((await grace.client.post(`/api/email-campaigns/${c.id}/send`)).status).toBe(200);
  await sink.waitFor(before + addresses.length);
  const ids = new Map<string, string>();
  for (const m of sink.messages.slice(before)) {
    ids.set(m.envelopeTo[0]!, m.parsed.messageId!);
    // Postmark hands this header back as the webhook's Metadata.
    expect(`<${m.header('x-pm-metadata-lampstand-message-id')}>`).toBe(m.parsed.messageId);
  }
  return ids;
}

/** An SNS message as SNS posts it, signed (SignatureVersion 2) with `key`. */
function sns(fields: Record<string, string>, key: crypto.KeyObject | string = signingKey) {
  const m: Record<string, string> = {
    MessageId: crypto.randomUUID(),
    TopicArn: 'arn:aws:sns:us-east-1:123456789012:ses-events',
    Timestamp: new Date().toISOString(),
    SignatureVersion: '2',
    SigningCertURL: `${snsBase}SimpleNotificationService-test.pem`,
    ...fields,
  };
  m.Signature = crypto.sign('sha256', Buffer.from(snsStringToSign(m)!), key).toString('base64');
  return m;
}
const sesNotification = (message: Record<string, unknown>) =>
  sns({ Type: 'Notification', Message: JSON.stringify(message) });
function sesBounce(to: string, messageId: string, bounceType: 'Permanent' | 'Transient') {
  return {
    notificationType: 'Bounce',
    bounce: {
      bounceType,
      bounceSubType: bounceType === 'Permanent' ? 'General' : 'MailboxFull',
      bouncedRecipients: [
        {
          emailAddress: to,
          status: bounceType === 'Permanent' ? '5.1.1' : '4.2.2',
          diagnosticCode: bounceType === 'Permanent' ? 'smtp; 550 5.1.1 No such user' : 'smtp; 452 Mailbox full',
        },
      ],
    },
    mail: { messageId: 'ses-0001', commonHeaders: { messageId } },
  };
}
/** A provider's post: `body` as JSON text (a string as it is), with these headers. */
async function post(provider: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${app.url}/api/email/events/${provider}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: { outcomes?: string[] } | undefined;
  try {
    json = JSON.parse(text) as { outcomes?: string[] };
  } catch {
    json = undefined;
  }
  return { status: res.status, text, body: json ?? {} };
}
// SNS posts its JSON as text/plain.
const postSes = (body: unknown) => post('ses', body, { 'content-type': 'text/plain; charset=UTF-8' });
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
const postPostmark = (body: unknown, authorization?: string) =>
  post('postmark', body, { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) });

async function suppressed() {
  return ((await grace.client.get('/api/suppressions')).body as { email: string; reason: string }[])
    .map((s) => `${s.email} ${s.reason}`)
    .sort();
}
const bounceRows = async () =>
  Number((await sql<{ n: number }>`select count(*)::int as n from email_bounces`.execute(app.db)).rows[0]!.n);

describe('provider event webhooks', () => {
  it('Amazon SES through SNS: verified bounces and complaints suppress, once each', async () => {
    const ids = await sendTo(['hard@example.org', 'soft@example.org', 'angry@example.org']);

    const hard = sesNotification(sesBounce('hard@example.org', ids.get('hard@example.org')!, 'Permanent'));
    const res = await postSes(hard);
    expect(res.status, res.text).toBe(200);
    expect(res.body.outcomes).toEqual(['suppressed']);
    expect(await suppressed()).toEqual(['hard@example.org hard_bounce']);
    const events = (await grace.client.get(`/api/contacts/${people.get('hard@example.org')}/events`)).body.events as {
      type: string;
      data: { reason?: string };
    }[];
    expect(events.find((e) => e.type === 'email.bounced')!.data.reason).toContain('Hard bounce: 5.1.1');
    // SNS sends a message again (no answer in time): nothing more is recorded.
    const rows = await bounceRows();
    expect((await postSes(hard)).body.outcomes).toEqual(['duplicate']);
    expect(await bounceRows()).toBe(rows);

    // Three soft bounces in 30 days: the third suppresses.
    for (const expected of ['recorded', 'recorded', 'suppressed']) {
      const soft = sesNotification(sesBounce('soft@example.org', ids.get('soft@example.org')!, 'Transient'));
      expect((await postSes(soft)).body.outcomes).toEqual([expected]);
    }

    // A complaint: suppressed and unsubscribed from all email.
    const complaint = sesNotification({
      notificationType: 'Complaint',
      complaint: { complainedRecipients: [{ emailAddress: 'angry@example.org' }], complaintFeedbackType: 'abuse' },
      mail: { messageId: 'ses-0002', headers: [{ name: 'Message-ID', value: ids.get('angry@example.org') }] },
    });
    expect((await postSes(complaint)).body.outcomes).toEqual(['suppressed']);
    const angry = (await grace.client.get(`/api/contacts/${people.get('angry@example.org')}`)).body;
    expect(angry.consent.email.status).toBe('unsubscribed');
    expect(await suppressed()).toEqual([
      'angry@example.org complaint',
      'hard@example.org hard_bounce',
      'soft@example.org soft_bounces',
    ]);
  });

  it('refuses unsigned, wrongly signed and foreign-certificate SNS messages (403, nothing stored)', async () => {
    const ids = await sendTo(['victim@example.org']);
    const bounce = sesBounce('victim@example.org', ids.get('victim@example.org')!, 'Permanent');
    const rows = await bounceRows();
    const signed = sesNotification(bounce);
    const attempts = [
      { ...signed, Signature: undefined },
      {
        ...signed,
        Message: JSON.stringify({ ...bounce, bounce: { ...bounce.bounce, bounceType: 'Permanent' } }) + ' ',
      },
      sns({ Type: 'Notification', Message: JSON.stringify(bounce) }, otherKey),
      { ...signed, SigningCertURL: 'https://evil.example.org/SimpleNotificationService-test.pem' },
      { ...signed, SignatureVersion: '3' },
      'not json',
    ];
    for (const body of attempts) {
      const res = await postSes(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(403);
    }
    expect(await bounceRows()).toBe(rows);
    expect((await suppressed()).some((s) => s.startsWith('victim@'))).toBe(false);
    expect((await post('mailgun', {}, { 'content-type': 'application/json' })).status).toBe(404);
  });

  it('refuses SES events from a topic not configured, and every SES event until topics are', async () => {
    const ids = await sendTo(['forged@example.org']);
    const bounce = sesBounce('forged@example.org', ids.get('forged@example.org')!, 'Permanent');
    const rows = await bounceRows();
    // Signed by SNS, but anyone's topic: SNS signs every topic's messages.
    const foreign = sns({
      Type: 'Notification',
      Message: JSON.stringify(bounce),
      TopicArn: 'arn:aws:sns:us-east-1:999999999999:attacker',
    });
    const res = await postSes(foreign);
    expect(res.status).toBe(403);
    expect(res.text).toContain('This SNS topic is not accepted here');

    // An app without SES_SNS_TOPIC_ARNS refuses even a well-signed event of a plausible topic.
    const bare = await startTestApp({
      publicUrl: 'http://lampstand.test',
      emailEvents: { snsCertUrlPrefixes: [snsBase], snsCertAllowLoopback: true },
    });
    const refused = await fetch(`${bare.url}/api/email/events/ses`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=UTF-8' },
      body: JSON.stringify(sesNotification(bounce)),
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      message: 'SES events are not accepted: SES_SNS_TOPIC_ARNS is not configured',
      code: 'FORBIDDEN',
    });
    expect(await bounceRows()).toBe(rows);
    expect((await suppressed()).some((s) => s.startsWith('forged@'))).toBe(false);
  });

  it('confirms an SNS subscription by visiting its SubscribeURL', async () => {
    const confirm = sns({
      Type: 'SubscriptionConfirmation',
      Message: 'You have chosen to subscribe to the topic.',
      Token: 'token-1',
      SubscribeURL: `${snsBase}confirm?Token=token-1`,
    });
    const res = await postSes(confirm);
    expect(res.status).toBe(200);
    expect(subscribeVisits).toEqual(['/confirm?Token=token-1']);
  });

  it('Postmark: basic auth checked; a hard bounce and a spam complaint suppress', async () => {
    const ids = await sendTo(['pm-hard@example.org', 'pm-angry@example.org']);
    const bounce = {
      RecordType: 'Bounce',
      ID: 4323372036,
      Type: 'HardBounce',
      TypeCode: 1,
      Email: 'pm-hard@example.org',
      Description: 'The server was unable to deliver your message (ex: unknown user, mailbox not found).',
      Details: 'smtp;550 5.1.1 The email account that you tried to reach does not exist.',
      Metadata: { 'lampstand-message-id': ids.get('pm-hard@example.org')!.replace(/[<>]/g, '') },
    };
    const rows = await bounceRows();
    expect((await postPostmark(bounce)).status).toBe(403);
    expect((await postPostmark(bounce, basic('postmark', 'wrong'))).status).toBe(403);
    expect((await postPostmark(bounce, basic('someone', 'hook-secret'))).status).toBe(403);
    expect(await bounceRows()).toBe(rows);

    const res = await postPostmark(bounce, basic('postmark', 'hook-secret'));
    expect(res.status, res.text).toBe(200);
    expect(res.body.outcomes).toEqual(['suppressed']);
    expect((await postPostmark(bounce, basic('postmark', 'hook-secret'))).body.outcomes).toEqual(['duplicate']);

    const complaint = {
      RecordType: 'SpamComplaint',
      ID: 42,
      Type: 'SpamComplaint',
      Email: 'pm-angry@example.org',
      Metadata: { 'lampstand-message-id': ids.get('pm-angry@example.org')!.replace(/[<>]/g, '') },
    };
    expect((await postPostmark(complaint, basic('postmark', 'hook-secret'))).body.outcomes).toEqual(['suppressed']);
    const angry = (await grace.client.get(`/api/contacts/${people.get('pm-angry@example.org')}`)).body;
    expect(angry.consent.email.status).toBe('unsubscribed');
    expect((await suppressed()).filter((s) => s.startsWith('pm-'))).toEqual([
      'pm-angry@example.org complaint',
      'pm-hard@example.org hard_bounce',
    ]);
    // A delivery record is no bounce.
    const delivered = { RecordType: 'Delivery', Email: 'pm-ok@example.org' };
    expect((await postPostmark(delivered, basic('postmark', 'hook-secret'))).body.outcomes).toEqual([]);
  });
});
