import { sql } from '@lampstand/db';
import { badRequest } from '../../errors.js';
import { textField, type CampaignChannel } from '../delivery/channels.js';
import { fillMergeTags } from '../email-campaigns/render.js';

export const NO_SMS_RECIPIENTS = 'Nobody to send to: the list has no subscribed contacts with a mobile number';

/**
 * SMS: recipients are members of the lists with an E.164 phone whose SMS consent is not
 * unsubscribed, and children on the lists through their parent's phone; one message per number.
 */
export const smsChannel: CampaignChannel = {
  channel: 'sms',
  table: 'sms_campaigns',
  startable: ['draft', 'scheduled', 'ready'],
  noRecipients: NO_SMS_RECIPIENTS,
  validate(c) {
    if (!textField(c.fields.content).trim()) throw badRequest('SMS content is required');
  },
  recipients(tenantId, listIds) {
    return sql`
        with members as (
          select c.id, c.phone_e164, c.first_name, c.last_name
          from contacts c join contacts_in_lists m on m.contact_id = c.id and m.user_id = c.user_id
          where c.user_id = ${tenantId} and m.list_id = any(${listIds}::int[])
          union all
          select p.id, p.phone_e164, p.first_name, p.last_name
          from children_in_lists cl
          join contact_children ch on ch.id = cl.child_id and ch.user_id = cl.user_id
          join contacts p on p.id = ch.parent_contact_id and p.user_id = ch.user_id
          where cl.user_id = ${tenantId} and cl.list_id = any(${listIds}::int[])
        )
        select distinct on (r.phone_e164) r.id, r.phone_e164 as address, r.first_name, r.last_name
        from members r
        join contacts c on c.id = r.id
        where r.phone_e164 is not null and c.sms_consent = 'subscribed'
          and not exists (
            select 1 from contacts u where u.user_id = ${tenantId} and u.phone_e164 = r.phone_e164 and u.sms_consent = 'unsubscribed'
          )
        order by r.phone_e164, r.id`;
  },
  pace: (config) => ({ ratePerSecond: config.smsRatePerSecond, concurrency: config.smsConcurrency }),
  send({ sms, config }, c, d) {
    return sms.send({
      to: d.address,
      from: c.smsFromNumber || config.smsFromNumber,
      body: fillMergeTags(
        c.content,
        { firstName: d.firstName, lastName: d.lastName, churchName: c.churchName },
        { html: false },
      ),
      statusCallback: `${config.publicUrl}/api/sms/status`,
      meta: { userId: c.userId, campaignId: c.id, deliveryId: d.id },
    });
  },
};
