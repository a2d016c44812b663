import type { Db } from '@lampstand/db';
import { smsKeyword } from '../../schemas/sms-campaigns.js';
import { setConsent } from '../contacts/consent.js';
import { recordEvent } from '../events/record.js';
import { deliveryEvent, findDeliveryRef, smsFailedEvent } from '../delivery/events.js';

const STATUS_MAP: Record<string, 'delivered' | 'undelivered' | 'failed' | undefined> = {
  delivered: 'delivered',
  undelivered: 'undelivered',
  failed: 'failed',
};

/**
 * Twilio's status callback: move the delivery to delivered, undelivered or failed, with its event
 * (`sms.delivered`, or `sms.failed` for both undelivered and failed) when the status changed.
 */
export async function applySmsStatus(db: Db, params: Record<string, string>): Promise<boolean> {
  const sid = params.MessageSid ?? params.SmsSid;
  const status = STATUS_MAP[(params.MessageStatus ?? params.SmsStatus ?? '').toLowerCase()];
  if (!sid) return false;
  if (!status) return true; // queued, sending, sent: nothing to record
  const lastError = params.ErrorCode ? `Error ${params.ErrorCode}` : null;
  return db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('deliveries')
      .select(['id', 'status'])
      .where('channel', '=', 'sms')
      .where('providerMessageId', '=', sid)
      .where('status', 'in', ['sent', 'delivered', 'undelivered', 'failed'])
      .forUpdate()
      .executeTakeFirst();
    if (!before) return false;
    await trx
      .updateTable('deliveries')
      .set({ status, lastError, updatedAt: new Date() })
      .where('id', '=', before.id)
      .execute();
    await trx.insertInto('deliveryEvents').values({ deliveryId: before.id, type: status, url: null }).execute();
    const ref = before.status === status ? undefined : await findDeliveryRef(trx, before.id);
    if (ref) {
      const reason = lastError ?? (status === 'undelivered' ? 'Undelivered' : 'Failed');
      await recordEvent(
        trx,
        ref.userId,
        status === 'delivered' ? deliveryEvent('sms.delivered', ref) : smsFailedEvent(ref, reason),
      );
    }
    return true;
  });
}

export interface InboundResult {
  /** The one confirmation text to send back, if any. */
  reply: string | null;
  changed: number;
}

/**
 * An inbound text. STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPTOUT and OPT OUT opt
 * the number out; START and UNSTOP opt it back in. It applies to the church that owns the number
 * texted; when that is the shared platform number, to every church that has the sender as a
 * contact. Each change goes on the contact's consent history. A webhook retried with the same
 * MessageSid changes nothing and sends no second reply.
 */
export async function handleInboundSms(
  db: Db,
  params: Record<string, string>,
  platformNumber: string,
): Promise<InboundResult> {
  const sid = params.MessageSid ?? params.SmsSid ?? '';
  const from = params.From ?? '';
  const to = params.To ?? '';
  const body = params.Body ?? '';
  const keyword = smsKeyword(body);
  const first = await db
    .insertInto('smsInboundMessages')
    .values({ messageSid: sid, fromNumber: from, toNumber: to, body, keyword })
    .onConflict((oc) => oc.column('messageSid').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!first || !keyword || !from) return { reply: null, changed: 0 };

  const owners = await db.selectFrom('churchSettings').select('userId').where('smsFromNumber', '=', to).execute();
  let q = db
    .selectFrom('contacts')
    .innerJoin('users as u', 'u.id', 'contacts.userId')
    .select(['contacts.id', 'contacts.userId', 'u.churchName'])
    .where('contacts.phoneE164', '=', from);
  if (owners.length > 0)
    q = q.where(
      'contacts.userId',
      'in',
      owners.map((o) => o.userId),
    );
  else if (to !== platformNumber) return { reply: null, changed: 0 };
  const contacts = await q.execute();
  const status = keyword === 'stop' ? 'unsubscribed' : 'subscribed';
  for (const c of contacts) {
    await setConsent(db, c.userId, {
      contactId: c.id,
      channel: 'sms',
      status,
      source: 'sms keyword',
      note: body.trim().toUpperCase(),
    });
  }
  const churches = [...new Set(contacts.map((c) => c.churchName))].join(', ') || 'this number';
  const reply =
    keyword === 'stop'
      ? `You are unsubscribed from ${churches} texts and will not receive more. Reply START to resubscribe.`
      : `You are subscribed again to ${churches} texts. Reply STOP to unsubscribe.`;
  return { reply, changed: contacts.length };
}
