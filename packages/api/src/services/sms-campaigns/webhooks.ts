import type { Db } from '@lampstand/db';
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
