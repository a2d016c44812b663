import { sql } from '@lampstand/db';
import { badRequest } from '../../errors.js';
import { type CampaignChannel, type DeliveryDeps } from '../delivery/channels.js';
import type { ChannelDriver } from '../delivery/engine.js';
import { renderEmail } from './render.js';

export const NO_RECIPIENTS = 'Nobody to send to: the list has no subscribed contacts with an email address';

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

interface LoadedCampaign {
  id: number;
  userId: number;
  subject: string;
  content: string;
  churchName: string;
  postalAddress: string | null;
}

/** "Grace Church <news@lampstand.example>": the church's name on the configured sending address. */
export function formatFrom(churchName: string, emailFrom: string): string {
  const address = /<([^>]+)>/.exec(emailFrom)?.[1] ?? emailFrom;
  return `"${churchName.replace(/["\\]/g, '')}" <${address}>`;
}

function emailDriver(deps: DeliveryDeps): ChannelDriver<LoadedCampaign> {
  const { db, email, config } = deps;
  return {
    channel: 'email',
    table: 'email_campaigns',
    ratePerSecond: config.emailRatePerSecond,
    concurrency: config.emailConcurrency,
    async load(campaignId) {
      const c = await db
        .selectFrom('emailCampaigns as c')
        .innerJoin('users as u', 'u.id', 'c.userId')
        .leftJoin('churchSettings as s', 's.userId', 'c.userId')
        .select(['c.id', 'c.userId', 'c.subject', 'c.content', 'c.status', 'u.churchName', 's.postalAddress'])
        .where('c.id', '=', campaignId)
        .executeTakeFirst();
      if (!c || c.status !== 'sending') return null;
      return {
        id: c.id,
        userId: c.userId,
        subject: c.subject,
        content: c.content,
        churchName: c.churchName,
        postalAddress: c.postalAddress ?? null,
      };
    },
    async send(c, d) {
      const message = renderEmail({
        subject: c.subject,
        html: c.content,
        churchName: c.churchName,
        postalAddress: c.postalAddress,
        recipient: { firstName: d.firstName, lastName: d.lastName },
        tracking: { publicUrl: config.publicUrl, secret: config.trackingSecret, token: d.token },
        publicUrl: config.publicUrl,
      });
      const host = new URL(config.publicUrl).hostname || 'lampstand.local';
      return email.send({
        from: formatFrom(c.churchName, config.emailFrom),
        to: d.address,
        ...message,
        messageId: `delivery-${d.id}.${d.token.slice(0, 12)}@${host}`,
        meta: { userId: c.userId, campaignId: c.id, deliveryId: d.id },
      });
    },
  };
}

/**
 * Email: recipients are members of the campaign's lists with an email address whose email consent
 * is not unsubscribed (through any of the church's contacts with that address), one per address.
 */
export const emailChannel: CampaignChannel = {
  channel: 'email',
  table: 'email_campaigns',
  startable: ['draft', 'scheduled'],
  noRecipients: NO_RECIPIENTS,
  validate(c) {
    if (!text(c.fields.subject).trim()) throw badRequest('Subject is required');
    if (!text(c.fields.content).trim()) throw badRequest('Email content is required');
  },
  recipients(tenantId, listIds) {
    return sql`
        select distinct on (lower(c.email)) c.id, c.email as address, c.first_name, c.last_name
        from contacts c
        join contacts_in_lists m on m.contact_id = c.id and m.user_id = c.user_id
        where c.user_id = ${tenantId}
          and m.list_id = any(${listIds}::int[])
          and c.email is not null and c.email <> ''
          and c.email_consent = 'subscribed'
          and not exists (
            select 1 from contacts u
            where u.user_id = c.user_id and lower(u.email) = lower(c.email) and u.email_consent = 'unsubscribed'
          )
        order by lower(c.email), c.id`;
  },
  driver: emailDriver,
};
