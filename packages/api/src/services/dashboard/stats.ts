import { parseTimestamptz, sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import { isSent } from '../delivery/status.js';
import type { dashboardStatsSchema } from '../../schemas/dashboard.js';

/** Percent with one decimal, or null when there is nothing to divide by (shown '—', not 0.0%). */
const pct = (n: number, of: number) => (of > 0 ? Math.round((1000 * n) / of) / 10 : null);
const oneDecimal = (n: number) => Math.round(n * 10) / 10;
/** Relative change in percent (one decimal); null without an earlier figure to compare with. */
const change = (now: number, before: number) => (before > 0 ? oneDecimal((100 * (now - before)) / before) : null);
/** Difference of two rates in percentage points; null when either has nothing behind it. */
const pointsChange = (now: number | null, before: number | null) =>
  now === null || before === null ? null : oneDecimal(now - before);

/** A campaign of the recent list as the statement returns it (JSON: its time as timestamptz text). */
interface RecentRow {
  id: number;
  name: string;
  type: 'email' | 'sms';
  sentAt: string | null;
  status: string;
  sent: number;
  opens: number;
}

interface UpcomingRow {
  id: number;
  name: string;
  type: 'email' | 'sms';
  scheduledFor: string | null;
  recipients: number;
}

/**
 * The dashboard in one statement (one round trip, one connection): the counts, and the lists as
 * JSON arrays (their times as timestamptz text, read with pg's own parser). Rates are null when
 * nothing was sent; each trend compares the church's own figures (docs/decisions.md): contacts now
 * against 30 days ago, the last sent email campaign's open rate against the one before, SMS
 * delivery and page visits this week (the last 7 days) against the 7 days before; null where there
 * is nothing earlier to compare with.
 */
export async function dashboardStats(db: Db, tenantId: number): Promise<z.input<typeof dashboardStatsSchema>> {
  const { rows } = await sql<{
    contacts: number;
    contactsAdded30: number;
    contactsRemoved30: number;
    emailDelivered: number;
    emailOpened: number;
    smsSent: number;
    smsDelivered: number;
    smsSentThisWeek: number;
    smsDeliveredThisWeek: number;
    smsSentLastWeek: number;
    smsDeliveredLastWeek: number;
    pageVisits: number;
    pageVisitsLastWeek: number;
    /** The last two sent email campaigns that reached anyone, newest first: [delivered, opened]. */
    lastCampaigns: Array<[number, number]>;
    recent: RecentRow[];
    upcoming: UpcomingRow[];
  }>`
    with sms as (
      select status, sent_at from deliveries where channel = 'sms' and user_id = ${tenantId} and ${isSent()}
    )
    select
      -- Kept by the writes (migration 0096): no count of the church's contacts on every load.
      (select coalesce(sum(added - removed), 0) from contact_counts where user_id = ${tenantId})::int as contacts,
      (select coalesce(sum(added), 0) from contact_counts
        where user_id = ${tenantId} and day > current_date - 30)::int as contacts_added30,
      (select coalesce(sum(removed), 0) from contact_removals_daily
        where user_id = ${tenantId} and day > current_date - 30)::int as contacts_removed30,
      (select count(*) from deliveries d join email_campaigns c on c.id = d.campaign_id
        where d.channel = 'email' and d.user_id = ${tenantId} and c.status = 'sent' and ${isSent('d.status')})::int as email_delivered,
      (select count(*) from deliveries d join email_campaigns c on c.id = d.campaign_id
        where d.channel = 'email' and d.user_id = ${tenantId} and c.status = 'sent' and ${isSent('d.status')}
          and exists (select 1 from delivery_events e where e.delivery_id = d.id and e.type in ('open', 'click')))::int as email_opened,
      (select count(*) from sms)::int as sms_sent,
      (select count(*) from sms where status = 'delivered')::int as sms_delivered,
      (select count(*) from sms where sent_at > now() - interval '7 days')::int as sms_sent_this_week,
      (select count(*) from sms where sent_at > now() - interval '7 days' and status = 'delivered')::int as sms_delivered_this_week,
      (select count(*) from sms where sent_at <= now() - interval '7 days' and sent_at > now() - interval '14 days')::int as sms_sent_last_week,
      (select count(*) from sms where sent_at <= now() - interval '7 days' and sent_at > now() - interval '14 days'
        and status = 'delivered')::int as sms_delivered_last_week,
      (select count(*) from landing_page_visits where user_id = ${tenantId} and day >= current_date - 6)::int as page_visits,
      (select count(*) from landing_page_visits
        where user_id = ${tenantId} and day between current_date - 13 and current_date - 7)::int as page_visits_last_week,
      (select coalesce(json_agg(json_build_array(l.delivered, l.opened) order by l.sent_at desc nulls last, l.id desc), '[]')
        from (
          select c.id, c.sent_at, x.delivered, x.opened from email_campaigns c
          cross join lateral (
            select count(*)::int as delivered,
              count(*) filter (where exists (select 1 from delivery_events e
                where e.delivery_id = d.id and e.type in ('open', 'click')))::int as opened
            from deliveries d where d.channel = 'email' and d.campaign_id = c.id and ${isSent('d.status')}
          ) x
          where c.user_id = ${tenantId} and c.status = 'sent' and x.delivered > 0
          order by c.sent_at desc nulls last, c.id desc limit 2
        ) l) as last_campaigns,
      (select coalesce(json_agg(json_build_object('id', r.id, 'name', r.name, 'type', r.type, 'sentAt', r.sent_at::text,
          'status', r.status, 'sent', r.sent, 'opens', r.opens) order by coalesce(r.sent_at, r.created_at) desc, r.id desc), '[]')
        from (
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
          ) x order by coalesce(sent_at, created_at) desc, id desc limit 5
        ) r) as recent,
      (select coalesce(json_agg(json_build_object('id', u.id, 'name', u.name, 'type', u.type,
          'scheduledFor', u.scheduled_for::text, 'recipients', u.recipients) order by u.scheduled_for asc), '[]')
        from (
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
          ) x order by scheduled_for asc limit 5
        ) u) as upcoming`.execute(db);
  const c = rows[0]!;
  const contactsThen = c.contacts - c.contactsAdded30 + c.contactsRemoved30;
  const [last, previous] = c.lastCampaigns.map(([delivered, opened]) => pct(opened, delivered));
  return {
    contactsCount: Number(c.contacts),
    emailOpenRate: pct(Number(c.emailOpened), Number(c.emailDelivered)),
    smsDeliveryRate: pct(Number(c.smsDelivered), Number(c.smsSent)),
    pageVisits: Number(c.pageVisits),
    trends: {
      contacts: change(c.contacts, contactsThen),
      emailOpenRate: pointsChange(last ?? null, previous ?? null),
      smsDeliveryRate: pointsChange(
        pct(c.smsDeliveredThisWeek, c.smsSentThisWeek),
        pct(c.smsDeliveredLastWeek, c.smsSentLastWeek),
      ),
      pageVisits: change(c.pageVisits, c.pageVisitsLastWeek),
    },
    recentCampaigns: c.recent.map((r) => ({
      id: r.id,
      name: r.name,
      type: r.type,
      sentAt: r.sentAt === null ? null : parseTimestamptz(r.sentAt),
      sent: Number(r.sent),
      opens: Number(r.opens),
      status: r.status,
    })),
    upcomingScheduled: c.upcoming.map((r) => ({
      id: r.id,
      name: r.name,
      type: r.type,
      scheduledFor: r.scheduledFor === null ? null : parseTimestamptz(r.scheduledFor),
      recipients: Number(r.recipients),
    })),
  };
}
