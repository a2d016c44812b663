import { afterAll, describe, expect, it } from 'vitest';
import { Resolver } from 'node:dns/promises';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { registerChurch, startTestApp } from '../helpers/test-app.js';
import { startSmtpSink } from '../helpers/smtp-sink.js';
import { startLocalDns } from '../helpers/local-dns.js';

// The church's own sending domain. Verify looks the records up in a local DNS server
// (DNS_SERVER); once verified the church's mail goes From its domain, DKIM-signed (checked with
// mailauth against the same DNS); until then From is the platform's address with Reply-To the church.
const dns = await startLocalDns();
const sink = await startSmtpSink({ ignoreTo: /^office_/ });
afterAll(async () => {
  await sink.close();
  await dns.close();
});
const app = await startTestApp({
  emailSmtpUrl: sink.url,
  emailFrom: 'Lampstand <news@lampstand.test>',
  publicUrl: 'http://lampstand.test',
  bounceDomain: 'bounces.lampstand.test',
  dnsServer: dns.server,
});
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
await grace.client.put('/api/settings', { postalAddress: '1 Church St' });

type Domain = {
  id: number;
  domain: string;
  status: string;
  fromAddress: string;
  records: { key: string; type: string; name: string; value: string; status: string; problem: string | null }[];
};
const record = (d: Domain, key: string) => d.records.find((r) => r.key === key)!;

/** Publish the records as shown, one of them left out or changed. */
function publish(d: Domain, change: Partial<Record<string, string | null>> = {}) {
  for (const r of d.records) {
    const value = r.key in change ? change[r.key] : r.value;
    dns.set(r.name, r.type as 'TXT' | 'CNAME', value === null || value === undefined ? [] : [value]);
  }
}

let people = 0;
async function sendCampaign(to: string) {
  const list = (await grace.client.post('/api/contact-lists', { name: `L ${to}`, type: 'email' })).body as {
    id: number;
  };
  const contact = (
    await grace.client.post('/api/contacts', {
      firstName: 'Ann',
      lastName: 'Lee',
      email: to,
      phone: `+614128${String(++people).padStart(5, '0')}`,
    })
  ).body as { id: number };
  await grace.client.post(`/api/contact-lists/${list.id}/contacts/${contact.id}`);
  const c = (
    await grace.client.post('/api/email-campaigns', {
      name: `News ${to}`,
      subject: 'News',
      content: '<p>Hi</p>',
      listIds: [list.id],
    })
  ).body as { id: number };
  const before = sink.messages.length;
  const res = await grace.client.post(`/api/email-campaigns/${c.id}/send`);
  expect(res.status, res.text).toBe(200);
  await sink.waitFor(before + 1);
  return sink.messages.slice(before).find((m) => m.envelopeTo.includes(to))!;
}

describe('sending domains', () => {
  let domain: Domain;

  it('refuses what is not a domain, naming the field', async () => {
    for (const bad of [
      '',
      'grace church.org',
      'localhost',
      'http://grace.org',
      'grace..org',
      'x'.repeat(300) + '.org',
    ]) {
      const res = await grace.client.post('/api/sending-domains', { domain: bad });
      expect(res.status, bad).toBe(400);
      expect(res.body.issues[0].path).toBe('domain');
      expect(res.body.message).toBe('Enter a domain, e.g. gracechurch.org');
    }
  });

  it('adds a domain with a DKIM key and the four records to add', async () => {
    const res = await grace.client.post('/api/sending-domains', { domain: 'GraceChurch.example.' });
    expect(res.status).toBe(201);
    domain = res.body as Domain;
    expect(domain).toMatchObject({
      domain: 'gracechurch.example',
      status: 'pending',
      fromAddress: 'news@gracechurch.example',
    });
    expect(domain.records.map((r) => [r.key, r.type, r.status])).toEqual([
      ['dkim', 'TXT', 'unchecked'],
      ['spf', 'TXT', 'unchecked'],
      ['dmarc', 'TXT', 'unchecked'],
      ['returnPath', 'CNAME', 'unchecked'],
    ]);
    expect(record(domain, 'dkim').name).toMatch(/^ls[0-9a-f]{8}\._domainkey\.gracechurch\.example$/);
    expect(record(domain, 'dkim').value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]{300,}={0,2}$/);
    expect(record(domain, 'spf').value).toBe('v=spf1 include:spf.bounces.lampstand.test ~all');
    expect(record(domain, 'returnPath')).toMatchObject({
      name: 'bounces.gracechurch.example',
      value: 'bounces.lampstand.test',
    });
    expect((await grace.client.post('/api/sending-domains', { domain: 'gracechurch.example' })).status).toBe(409);
    const list = await grace.client.get('/api/sending-domains');
    expect(list.body.map((d: Domain) => d.domain)).toEqual(['gracechurch.example']);
    // The private key never leaves the server.
    expect(JSON.stringify(list.body)).not.toMatch(/PRIVATE KEY/);
  });

  it("hides another church's domain (404)", async () => {
    expect((await hope.client.get('/api/sending-domains')).body).toEqual([]);
    expect((await hope.client.post(`/api/sending-domains/${domain.id}/verify`)).status).toBe(404);
    expect((await hope.client.delete(`/api/sending-domains/${domain.id}`)).status).toBe(404);
  });

  it('before verification: From the platform, Reply-To the church, not signed', async () => {
    const mail = await sendCampaign('ann@example.org');
    expect(mail.parsed.from?.value[0]?.address).toBe('news@lampstand.test');
    expect(mail.parsed.replyTo?.value[0]?.address).toBe(grace.user.email);
    expect(mail.header('dkim-signature')).toBeUndefined();
  });

  it('says which record is missing', async () => {
    publish(domain, { dkim: null, dmarc: null });
    const res = await grace.client.post(`/api/sending-domains/${domain.id}/verify`);
    expect(res.status).toBe(200);
    const d = res.body as Domain;
    expect(d.status).toBe('pending');
    expect(record(d, 'dkim')).toMatchObject({ status: 'missing' });
    expect(record(d, 'dkim').problem).toContain(record(domain, 'dkim').name);
    expect(record(d, 'spf').status).toBe('ok');
    expect(record(d, 'returnPath').status).toBe('ok');
    expect(record(d, 'dmarc').status).toBe('missing');
  });

  it('says which record is wrong', async () => {
    publish(domain, {
      dkim: 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAwrong',
      spf: 'v=spf1 include:_spf.other.example ~all',
      returnPath: 'mail.other.example',
    });
    const d = (await grace.client.post(`/api/sending-domains/${domain.id}/verify`)).body as Domain;
    expect(d.status).toBe('pending');
    expect(record(d, 'dkim')).toMatchObject({ status: 'wrong' });
    expect(record(d, 'spf')).toMatchObject({
      status: 'wrong',
      problem:
        'The SPF record does not include spf.bounces.lampstand.test: found "v=spf1 include:_spf.other.example ~all".',
    });
    expect(record(d, 'returnPath')).toMatchObject({
      status: 'wrong',
      problem: 'The return path points to mail.other.example instead of bounces.lampstand.test.',
    });
    expect(record(d, 'dmarc').status).toBe('ok');
  });

  it('verifies with the right records (DMARC only suggested)', async () => {
    publish(domain, { dmarc: null });
    const d = (await grace.client.post(`/api/sending-domains/${domain.id}/verify`)).body as Domain;
    expect(d.records.map((r) => [r.key, r.status])).toEqual([
      ['dkim', 'ok'],
      ['spf', 'ok'],
      ['dmarc', 'missing'],
      ['returnPath', 'ok'],
    ]);
    expect(d.status).toBe('verified');
    expect((await grace.client.get('/api/sending-domains')).body[0].status).toBe('verified');
  });

  it("sends the church's mail From its domain, DKIM-signed, the return path under the domain", async () => {
    const mail = await sendCampaign('bob@example.org');
    expect(mail.parsed.from?.value[0]).toMatchObject({ name: 'Grace Church', address: 'news@gracechurch.example' });
    expect(mail.parsed.replyTo?.value[0]?.address).toBe(grace.user.email);
    expect(mail.envelopeFrom).toMatch(/^bounces\+[0-9a-f]+@bounces\.gracechurch\.example$/);
    const resolver = new Resolver();
    resolver.setServers([dns.server]);
    const result = await dkimVerify(Buffer.from(mail.raw), {
      resolver: (name: string, type: string) => resolver.resolve(name, type as 'TXT'),
    });
    expect(result.results.map((r: { status: { result: string } }) => r.status.result)).toEqual(['pass']);
    expect(result.results[0]?.signingDomain).toBe('gracechurch.example');
    // The same message with its body changed fails.
    const tampered = mail.raw.replace('Hi', 'Bye');
    const bad = await dkimVerify(Buffer.from(tampered), {
      resolver: (name: string, type: string) => resolver.resolve(name, type as 'TXT'),
    });
    expect(bad.results[0]?.status.result).not.toBe('pass');
  });

  it('a record gone makes it pending again; deleting the domain sends From the platform', async () => {
    publish(domain, { spf: null });
    const d = (await grace.client.post(`/api/sending-domains/${domain.id}/verify`)).body as Domain;
    expect(d.status).toBe('pending');
    expect(record(d, 'spf').status).toBe('missing');
    expect((await grace.client.delete(`/api/sending-domains/${domain.id}`)).status).toBe(200);
    expect((await grace.client.get('/api/sending-domains')).body).toEqual([]);
    const mail = await sendCampaign('cy@example.org');
    expect(mail.parsed.from?.value[0]?.address).toBe('news@lampstand.test');
  });
});
