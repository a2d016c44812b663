import { sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import { isSent } from '../delivery/status.js';
import type { dashboardStatsSchema } from '../../schemas/dashboard.js';

const pct = (n: number, of: number) => (of > 0 ? Math.round((1000 * n) / of) / 10 : 0);

/** The dashboard in one round trip; every figure 0 (never NaN) for a new church. */
export async function dashboardStats(db: Db, tenantId: number): Promise<z.input<typeof dashboardStatsSchema>> {
  const [counts, recent, upcoming] = await Promise.all([
    sql<{
      contacts: number;
      emailDelivered: number;
      emailOpened: number;
      smsSent: number;
      smsDelivered: number;
      pageVisits: number;
    }>`
      select
        (select count(*) from contacts where user_id = ${tenantId})::int as contacts,
        (select count(*) from deliveries d join email_campaigns c on c.id = d.campaign_id
          where d.channel = 'email' and d.user_id = ${tenantId} and c.status = 'sent' and ${isSent('d.status')})::int as email_delivered,
        (select count(*) from deliveries d join email_campaigns c on c.id = d.campaign_id
          where d.channel = 'email' and d.user_id = ${tenantId} and c.status = 'sent' and ${isSent('d.status')}
            and exists (select 1 from delivery_events e where e.delivery_id = d.id and e.type in ('open', 'click')))::int as email_opened,
        (select count(*) from deliveries where channel = 'sms' and user_id = ${tenantId} and ${isSent()})::int as sms_sent,
        (select count(*) from deliveries where channel = 'sms' and user_id = ${tenantId} and status = 'delivered')::int as sms_delivered,
        (select count(*) from landing_page_visits where user_id = ${tenantId} and day >= current_date - 6)::int as page_visits`.execute(
      db,
    ),
    sql<{
      id: number;
      name: string;
      type: 'email' | 'sms';
      sentAt: Date | null;
      status: string;
      sent: number;
      opens: number;
      createdAt: Date;
    }>`
      select * from (
        select c.id, c.name, 'email' as type, c.sent_at, c.status, c.created_at,
          (select count(*) from deliveries d where d.channel = 'email' and d.campaign_id = c.id and ${isSent('d.status')})::int as sent,
          (select count(*) from deliveries d where d.channel = 'email' and d.campaign_id = c.id
             and exists (select 1 from delivery_events e where e.delivery_id = d.id and e.type in ('open', 'click')))::int as opens
        from email_campaigns c where c.user_id = ${tenantId}
        union all
        select c.id, c.name, 'sms' as type, c.sent_at, c.status, c.created_at,
          (select count(*) from deliveries d where d.channel = 'sms' and d.campaign_id = c.id and ${isSent('d.status')})::int as sent,
          0 as opens
        from sms_campaigns c where c.user_id = ${tenantId}
      ) x order by coalesce(sent_at, created_at) desc, id desc limit 5`.execute(db),
    sql<{ id: number; name: string; type: 'email' | 'sms'; scheduledFor: Date | null; recipients: number }>`
      select * from (
        select c.id, c.name, 'email' as type, c.scheduled_for,
          (select count(distinct lower(ct.email)) from contacts ct join contacts_in_lists m on m.contact_id = ct.id
            where m.list_id = any(c.list_ids) and ct.user_id = ${tenantId} and ct.email is not null and ct.email_consent = 'subscribed')::int as recipients
        from email_campaigns c where c.user_id = ${tenantId} and c.status = 'scheduled' and c.scheduled_for > now()
        union all
        select c.id, c.name, 'sms' as type, c.scheduled_for,
          (select count(distinct ct.phone_e164) from contacts ct join contacts_in_lists m on m.contact_id = ct.id
            where m.list_id = any(c.list_ids) and ct.user_id = ${tenantId} and ct.phone_e164 is not null and ct.sms_consent = 'subscribed')::int as recipients
        from sms_campaigns c where c.user_id = ${tenantId} and c.status = 'scheduled' and c.scheduled_for > now()
      ) x order by scheduled_for asc limit 5`.execute(db),
  ]);
  const c = counts.rows[0]!;
  return {
    contactsCount: Number(c.contacts),
    emailOpenRate: pct(Number(c.emailOpened), Number(c.emailDelivered)),
    smsDeliveryRate: pct(Number(c.smsDelivered), Number(c.smsSent)),
    pageVisits: Number(c.pageVisits),
    recentCampaigns: recent.rows.map((r) => ({
      id: r.id,
      name: r.name,
      type: r.type,
      sentAt: r.sentAt,
      sent: Number(r.sent),
      opens: Number(r.opens),
      status: r.status,
    })),
    upcomingScheduled: upcoming.rows.map((r) => ({
      id: r.id,
      name: r.name,
      type: r.type,
      scheduledFor: r.scheduledFor,
      recipients: Number(r.recipients),
    })),
  };
}
