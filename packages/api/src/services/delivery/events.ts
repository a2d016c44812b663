import { sql, type Channel, type Db } from '@lampstand/db';
import type { NewEvent } from '../../schemas/events.js';
import { personOf } from '../events/record.js';

/** A delivery as its events name it: the person it went to and the campaign it was part of. */
export interface DeliveryRef {
  id: number;
  userId: number;
  contactId: number | null;
  channel: Channel;
  address: string;
  firstName: string;
  lastName: string;
  campaign: { id: number; name: string } | null;
}

/** The person a delivery went to, as it was addressed (events keep them under `person`). */
export function deliveryPerson(d: Pick<DeliveryRef, 'channel' | 'address' | 'firstName' | 'lastName'>) {
  return personOf({
    firstName: d.firstName,
    lastName: d.lastName,
    email: d.channel === 'email' ? d.address : null,
    phone: d.channel === 'sms' ? d.address : null,
  });
}

/** The delivery `id` with its campaign's name (null: a planner request, or gone). */
export async function findDeliveryRef(db: Db, id: number): Promise<DeliveryRef | undefined> {
  const { rows } = await sql<
    Omit<DeliveryRef, 'campaign'> & { campaignId: number | null; campaignName: string | null }
  >`
    select d.id, d.user_id, d.contact_id, d.channel, d.address, d.first_name, d.last_name,
      d.campaign_id, coalesce(e.name, s.name) as campaign_name
    from deliveries d
    left join email_campaigns e on d.kind = 'campaign' and d.channel = 'email' and e.id = d.campaign_id
    left join sms_campaigns s on d.kind = 'campaign' and d.channel = 'sms' and s.id = d.campaign_id
    where d.id = ${id}`.execute(db);
  const r = rows[0];
  if (!r) return undefined;
  const { campaignId, campaignName, ...rest } = r;
  return { ...rest, campaign: campaignId && campaignName !== null ? { id: campaignId, name: campaignName } : null };
}

type DeliveryEventType = 'email.opened' | 'email.unsubscribed' | 'sms.sent' | 'email.sent' | 'sms.delivered';

/** An event of delivery `d` with no more to say than its person, campaign and id. */
export function deliveryEvent(type: DeliveryEventType, d: DeliveryRef): NewEvent {
  return {
    type,
    contactId: d.contactId,
    payload: { person: deliveryPerson(d), campaign: d.campaign, deliveryId: d.id },
  };
}

/** `email.sent` or `sms.sent`. */
export function sentEvent(d: DeliveryRef): NewEvent {
  return deliveryEvent(d.channel === 'email' ? 'email.sent' : 'sms.sent', d);
}

/** `email.clicked`, with the address followed. */
export function clickedEvent(d: DeliveryRef, url: string): NewEvent {
  return {
    type: 'email.clicked',
    contactId: d.contactId,
    payload: { person: deliveryPerson(d), campaign: d.campaign, deliveryId: d.id, url },
  };
}

/** `sms.failed` with the reason (the provider's error, or the last error of the retries). */
export function smsFailedEvent(d: DeliveryRef, reason: string): NewEvent {
  return {
    type: 'sms.failed',
    contactId: d.contactId,
    payload: { person: deliveryPerson(d), campaign: d.campaign, deliveryId: d.id, reason },
  };
}
