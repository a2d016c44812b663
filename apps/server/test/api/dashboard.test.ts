import { describe, expect, it } from 'vitest';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';

const app = await startTestApp();
await registerChurch(app.url, 'Platform');

async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out');
}

describe('GET /api/dashboard/stats', () => {
  it('is all zeros (never NaN) for a new church', async () => {
    const church = await registerChurch(app.url, 'New Church');
    const res = await church.client.get('/api/dashboard/stats');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      contactsCount: 0,
      emailOpenRate: 0,
      smsDeliveryRate: 0,
      pageVisits: 0,
      recentCampaigns: [],
      upcomingScheduled: [],
    });
    expect((await new HttpClient(app.url).get('/api/dashboard/stats')).status).toBe(401);
  });

  it('computes exact figures from sent email and SMS campaigns, and lists recent and upcoming ones', async () => {
    const church = await registerChurch(app.url, 'Busy Church');
    const other = await registerChurch(app.url, 'Other Church');
    await other.client.post('/api/contacts', {
      firstName: 'O',
      lastName: 'X',
      email: 'o@example.org',
      phone: '0412000999',
    });
    const list = (await church.client.post('/api/contact-lists', { name: 'All' })).body;
    for (let i = 1; i <= 4; i++) {
      const c = (
        await church.client.post('/api/contacts', {
          firstName: `P${i}`,
          lastName: 'X',
          email: `p${i}@example.org`,
          phone: `041200000${i}`,
        })
      ).body;
      await church.client.post(`/api/contact-lists/${list.id}/contacts/${c.id}`);
    }
    const email = (
      await church.client.post('/api/email-campaigns', {
        name: 'Email A',
        subject: 'S',
        content: '<p>Hello there</p>',
        listIds: [list.id],
      })
    ).body;
    await church.client.post(`/api/email-campaigns/${email.id}/send`);
    const sms = (
      await church.client.post('/api/sms-campaigns', {
        name: 'SMS A',
        content: 'Hi',
        status: 'ready',
        listIds: [list.id],
      })
    ).body;
    await church.client.post(`/api/sms-campaigns/${sms.id}/send`);
    await until(
      async () =>
        (await church.client.get(`/api/email-campaigns/${email.id}`)).body.status === 'sent' &&
        (await church.client.get(`/api/sms-campaigns/${sms.id}`)).body.status === 'sent',
    );

    // 1 of 4 emails opened (twice: still one unique open); 3 of 4 texts delivered.
    const deliveries = await app.db
      .selectFrom('deliveries')
      .select(['id', 'channel'])
      .where('campaignId', 'in', [email.id, sms.id])
      .orderBy('id')
      .execute();
    const firstEmail = deliveries.find((d) => d.channel === 'email')!;
    await app.db
      .insertInto('deliveryEvents')
      .values([
        { deliveryId: firstEmail.id, type: 'open', url: null },
        { deliveryId: firstEmail.id, type: 'open', url: null },
      ])
      .execute();
    const smsIds = deliveries.filter((d) => d.channel === 'sms').map((d) => d.id);
    await app.db.updateTable('deliveries').set({ status: 'delivered' }).where('id', 'in', smsIds.slice(0, 3)).execute();

    const future = new Date(Date.now() + 3 * 86400_000).toISOString();
    await church.client.post('/api/email-campaigns', {
      name: 'Later',
      subject: 'S',
      content: '<p>Hello later</p>',
      status: 'scheduled',
      scheduledFor: future,
      listIds: [list.id],
    });
    await church.client.post('/api/email-campaigns', {
      name: 'Draft',
      subject: 'S',
      content: '<p>Draft only</p>',
      listIds: [list.id],
    });

    const res = await church.client.get('/api/dashboard/stats');
    expect(res.body).toMatchObject({ contactsCount: 4, emailOpenRate: 25, smsDeliveryRate: 75, pageVisits: 0 });
    // Newest first by sent (or created) time: the two unsent ones were made last.
    expect(res.body.recentCampaigns.map((c: { name: string }) => c.name)).toEqual([
      'Draft',
      'Later',
      'SMS A',
      'Email A',
    ]);
    const emailRow = res.body.recentCampaigns.find((c: { name: string }) => c.name === 'Email A');
    expect(emailRow).toMatchObject({ type: 'email', sent: 4, opens: 1, status: 'sent' });
    expect(emailRow.sentAt).toBeTruthy();
    expect(res.body.recentCampaigns.find((c: { name: string }) => c.name === 'SMS A')).toMatchObject({
      type: 'sms',
      sent: 4,
      status: 'sent',
    });
    expect(res.body.recentCampaigns.find((c: { name: string }) => c.name === 'Draft')).toMatchObject({
      sentAt: null,
      sent: 0,
      status: 'draft',
    });
    expect(res.body.upcomingScheduled).toEqual([
      { id: expect.any(Number), name: 'Later', type: 'email', scheduledFor: future, recipients: 4 },
    ]);
  });
});
