import { sql } from '@lampstand/db';
import { badRequest } from '../../errors.js';
import { textField, type CampaignChannel } from '../delivery/channels.js';
import { renderEmail } from './render.js';
import { suppressedSql } from '../deliverability/suppressions.js';
import { verpAddress } from '../deliverability/reports.js';

export const NO_RECIPIENTS = 'Nobody to send to: the list has no subscribed contacts with an email address';

/** "Grace Church <news@lampstand.example>": the church's name on the configured sending address. */
export function formatFrom(churchName: string, emailFrom: string): string {
  const address = /<([^>]+)>/.exec(emailFrom)?.[1] ?? emailFrom;
  return `"${churchName.replace(/["\\]/g, '')}" <${address}>`;
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
    if (!textField(c.fields.subject).trim()) throw badRequest('Subject is required');
    if (!textField(c.fields.content).trim()) throw badRequest('Email content is required');
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
            where u.user_id = c.user_id and u.email_lower = c.email_lower and u.email_consent = 'unsubscribed'
          )
          and not ${suppressedSql(tenantId, sql.ref('c.email'))}
        order by lower(c.email), c.id`;
  },
  pace: (config) => ({ ratePerSecond: config.emailRatePerSecond, concurrency: config.emailConcurrency }),
  send({ email, config }, c, d) {
    const message = renderEmail({
      subject: textField(c.fields.subject),
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
      onBehalfOf: c.userId,
      to: d.address,
      ...message,
      messageId: `delivery-${d.id}.${d.token.slice(0, 12)}@${host}`,
      // VERP: a bounce comes back to an address that names this delivery.
      returnPath: verpAddress(d.token, config.bounceDomain ?? host),
      meta: { userId: c.userId, campaignId: c.id, deliveryId: d.id },
    });
  },
};
