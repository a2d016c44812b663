import { afterAll, describe, expect, it } from 'vitest';
import { addContact, registerChurch, startTestApp } from '../helpers/test-app.js';
import { refuseBadAndFlakyOnce, startSmtpSink } from '../helpers/smtp-sink.js';

// bad@ is refused for good (550); flaky@ is refused once (451), then accepted.
const refusals = refuseBadAndFlakyOnce();
const sink = await startSmtpSink({
  ignoreTo: /^office_/, // each registered church's verification email
  rejectTo: refusals.rejectTo,
});
afterAll(() => sink.close());
const app = await startTestApp({ emailSmtpUrl: sink.url }, { retryBaseSeconds: 1 });

describe('delivery failures', () => {
  it('retries a temporary failure with backoff, marks a permanent one failed with the reason, and still finishes the campaign', async () => {
    await registerChurch(app.url, 'Platform');
    const church = await registerChurch(app.url, 'Grace');
    const list = (await church.client.post('/api/contact-lists', { name: 'All' })).body;
    for (const email of ['good@example.org', 'bad@example.org', 'flaky@example.org']) {
      const c = await addContact(church.client, { firstName: 'P', lastName: email, email, phone: '0412345678' });
      await church.client.post(`/api/contact-lists/${list.id}/contacts/${c.id}`);
    }
    const campaign = (
      await church.client.post('/api/email-campaigns', {
        name: 'F',
        subject: 'S',
        content: '<p>Hello there</p>',
        listIds: [list.id],
      })
    ).body;
    await church.client.post(`/api/email-campaigns/${campaign.id}/send`);
    const start = Date.now();
    let c;
    for (;;) {
      c = (await church.client.get(`/api/email-campaigns/${campaign.id}`)).body;
      if (c.status === 'sent' || Date.now() - start > 20_000) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(c.status).toBe('sent');
    expect(c.progress).toEqual({ total: 3, sent: 2, failed: 1, pending: 0 });
    const rows = await app.db
      .selectFrom('deliveries')
      .select(['address', 'status', 'attempts', 'lastError'])
      .where('address', 'not like', 'office\\_%') // the churches' verification emails
      .orderBy('address')
      .execute();
    expect(rows.map((r) => [r.address, r.status, r.attempts])).toEqual([
      ['bad@example.org', 'failed', 1],
      ['flaky@example.org', 'sent', 2],
      ['good@example.org', 'sent', 1],
    ]);
    expect(rows[0]!.lastError).toMatch(/550|No such user/);
    expect([...sink.counts().keys()].sort()).toEqual(['flaky@example.org', 'good@example.org']);
    const stats = (await church.client.get(`/api/email/campaigns/${campaign.id}/stats`)).body;
    expect(stats).toMatchObject({ recipients: 3, sent: 2, bounced: 1 });
  }, 30_000);

  it('preview renders what a recipient sees, merge tags from a contact of the list', async () => {
    const church = await registerChurch(app.url, 'Preview Church');
    const list = (await church.client.post('/api/contact-lists', { name: 'L' })).body;
    const c = await addContact(church.client, {
      firstName: 'Priscilla',
      lastName: 'Aquila',
      email: 'pa@example.org',
      phone: '0412345678',
    });
    await church.client.post(`/api/contact-lists/${list.id}/contacts/${c.id}`);
    const res = await church.client.post('/api/email-campaigns/preview', {
      subject: 'Hi {{firstName}}',
      content: '<p>{{churchName}} says hi</p><img src=x onerror=alert(1)>',
      listId: list.id,
    });
    expect(res.status).toBe(200);
    expect(res.body.subject).toBe('Hi Priscilla');
    expect(res.body.html).toContain('Preview Church says hi');
    expect(res.body.html).not.toContain('onerror');
    expect(res.body.sample).toEqual({ firstName: 'Priscilla', lastName: 'Aquila' });
  });
});
