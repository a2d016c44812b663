import { describe, expect, it } from 'vitest';
import { ownerDb, sql } from '@lampstand/db';
import { addContact, HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';

const app = await startTestApp();
await registerChurch(app.url, 'Platform');

async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out');
}

/**
 * Sends a campaign of the channel (`fields` as POST /api/{channel}-campaigns takes them) and waits
 * until it is sent; returns its deliveries' ids, in order.
 */
async function sendCampaign(
  church: Awaited<ReturnType<typeof registerChurch>>,
  channel: 'email' | 'sms',
  fields: Record<string, unknown>,
): Promise<number[]> {
  const path = `/api/${channel}-campaigns`;
  const campaign = (await church.client.post(path, fields)).body as { id: number };
  await church.client.post(`${path}/${campaign.id}/send`);
  await until(async () => (await church.client.get(`${path}/${campaign.id}`)).body.status === 'sent');
  const rows = await ownerDb(app.db)
    .selectFrom('deliveries')
    .select('id')
    .where('campaignId', '=', campaign.id)
    .where('channel', '=', channel)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

describe('GET /api/dashboard/stats', () => {
  it('is zeros, with no rate and no trend (never NaN or 0.0%), for a new church', async () => {
    const church = await registerChurch(app.url, 'New Church');
    const res = await church.client.get('/api/dashboard/stats');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      contactsCount: 0,
      emailOpenRate: null,
      smsDeliveryRate: null,
      pageVisits: 0,
      trends: { contacts: null, emailOpenRate: null, smsDeliveryRate: null, pageVisits: null },
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
      const c = await addContact(church.client, {
        firstName: `P${i}`,
        lastName: 'X',
        email: `p${i}@example.org`,
        phone: `041200000${i}`,
      });
      await church.client.post(`/api/contact-lists/${list.id}/contacts/${c.id}`);
    }
    const emailIds = await sendCampaign(church, 'email', {
      name: 'Email A',
      subject: 'S',
      content: '<p>Hello there</p>',
      listIds: [list.id],
    });
    const smsIds = await sendCampaign(church, 'sms', {
      name: 'SMS A',
      content: 'Hi',
      status: 'ready',
      listIds: [list.id],
    });

    // 1 of 4 emails opened (one 'open' row per delivery: migration 0106); 3 of 4 texts delivered.
    await app.db
      .insertInto('deliveryEvents')
      .values([{ deliveryId: emailIds[0]!, type: 'open', url: null }])
      .execute();
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
  }, 90_000);

  it("computes each card's change from the church's own data (a church whose contacts fell sees it)", async () => {
    const church = await registerChurch(app.url, 'Trend Church');
    const owner = ownerDb(app.db);
    const list = (await church.client.post('/api/contact-lists', { name: 'Everyone' })).body;
    const ids: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const c = await addContact(church.client, {
        firstName: `T${i}`,
        lastName: 'Y',
        email: `t${i}@example.org`,
        phone: `041300000${i}`,
      });
      ids.push(c.id);
      await church.client.post(`/api/contact-lists/${list.id}/contacts/${c.id}`);
    }
    // Four of them were there 40 days ago; two of those four are removed today: 4 then, 3 now.
    await owner
      .updateTable('contacts')
      .set({ createdAt: new Date(Date.now() - 40 * 86400_000) })
      .where('id', 'in', ids.slice(0, 4))
      .execute();
    // The church's count of contacts (migration 0096) as if those four had been added then.
    await sql`delete from contact_counts where user_id = ${church.user.id}`.execute(owner);
    await sql`
      insert into contact_counts (user_id, day, added)
      values (${church.user.id}, current_date - 40, 4), (${church.user.id}, current_date, 1)`.execute(owner);

    // Two sent email campaigns to the same five: 1 of 5 opened, then 4 of 5 opened: +60 points.
    const sendEmail = async (name: string, opened: number) => {
      const deliveryIds = await sendCampaign(church, 'email', {
        name,
        subject: 'S',
        content: '<p>Hello there</p>',
        listIds: [list.id],
      });
      expect(deliveryIds).toHaveLength(5);
      await owner
        .insertInto('deliveryEvents')
        .values(deliveryIds.slice(0, opened).map((deliveryId) => ({ deliveryId, type: 'open' as const, url: null })))
        .execute();
    };
    await sendEmail('First', 1);
    await sendEmail('Second', 4);

    // Five texts: three sent this week (all delivered), two sent 8 days ago (one delivered): +50 points.
    const texts = await sendCampaign(church, 'sms', {
      name: 'Texts',
      content: 'Hi',
      status: 'ready',
      listIds: [list.id],
    });
    expect(texts).toHaveLength(5);
    await owner.updateTable('deliveries').set({ status: 'delivered' }).where('id', 'in', texts.slice(0, 4)).execute();
    await owner
      .updateTable('deliveries')
      .set({ sentAt: new Date(Date.now() - 8 * 86400_000) })
      .where('id', 'in', texts.slice(3, 5))
      .execute();

    // The contacts removed now (after the sends, which needed them).
    for (const id of ids.slice(0, 2)) expect((await church.client.delete(`/api/contacts/${id}`)).status).toBe(200);

    // Page visits: 3 this week, 4 the week before: -25%.
    const created = await church.client.post('/api/landing-pages', {
      name: 'Visits',
      slug: 'trend-visits',
      content: { headline: 'Hello', subheading: '', mainContent: '', callToAction: '', keyPoints: [] },
    });
    expect(created.status, created.text).toBe(201);
    const page = created.body as { id: number };
    const { rows: days } = await sql<{ today: string; lastWeek: string }>`
      select current_date::text as today, (current_date - 9)::text as "lastWeek"`.execute(owner);
    const visit = (day: string, n: number) => ({
      userId: church.user.id,
      pageId: page.id,
      day,
      visitorHash: `v${n}-${day}`,
      sourceKind: 'direct' as const,
      sourceValue: null,
    });
    await owner
      .insertInto('landingPageVisits')
      .values([
        ...[1, 2, 3].map((n) => visit(days[0]!.today, n)),
        ...[1, 2, 3, 4].map((n) => visit(days[0]!.lastWeek, n)),
      ])
      .execute();

    const res = await church.client.get('/api/dashboard/stats');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ contactsCount: 3, emailOpenRate: 50, smsDeliveryRate: 80, pageVisits: 3 });
    expect(res.body.trends).toEqual({ contacts: -25, emailOpenRate: 60, smsDeliveryRate: 50, pageVisits: -25 });
  }, 90_000);
});
