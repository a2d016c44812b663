import { sql, type Db } from '@lampstand/db';
import { cappedExponential, failLeased, type Backoff } from '../background/claim.js';
import { recordEvents } from '../events/record.js';
import type { DeliveryConfig } from './config.js';
import type { ChannelDriver } from './engine.js';
import { smsFailedEvent, type DeliveryRef } from './events.js';
import { DELIVERY_LEASES, leaseOf, type Delivery } from './leases.js';

/** The longest wait between two tries of a message, however many tries it has had. */
const MAX_RETRY_MS = 3_600_000;

/**
 * The one retry policy of every channel (campaign deliveries and social posts alike): try again
 * after retryBaseSeconds, doubling with each try (up to an hour), and give up after `maxAttempts`.
 */
export const deliveryBackoff = (config: Pick<DeliveryConfig, 'maxAttempts' | 'retryBaseSeconds'>): Backoff =>
  cappedExponential({ firstMs: config.retryBaseSeconds * 1000, maxMs: MAX_RETRY_MS, maxAttempts: config.maxAttempts });

/** Why a try failed, as a delivery keeps it. */
export const failureReason = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

/** Errors that will not go away by trying again (a 5xx SMTP reply, an invalid number, a 4xx webhook answer). */
export function isPermanent(err: unknown): boolean {
  const e = err as { responseCode?: number; permanent?: boolean } | null;
  return (
    !!e &&
    (e.permanent === true || (typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600))
  );
}

/**
 * A failed send, while the claim is still ours: back to pending for a retry after its back-off, or
 * failed for good (an SMS with its `sms.failed` event, in the same transaction); true when it was
 * marked failed.
 */
export async function recordFailure<C>(
  db: Db,
  driver: ChannelDriver<C>,
  ref: DeliveryRef,
  delivery: Delivery,
  err: unknown,
  config: DeliveryConfig,
): Promise<boolean> {
  const reason = failureReason(err);
  const failed = await db.transaction().execute(async (trx) => {
    const { outcome } = await failLeased(trx, DELIVERY_LEASES, leaseOf(delivery), {
      backoff: deliveryBackoff(config),
      giveUp: isPermanent(err),
      now: config.clock?.(),
      retry: sql`status = 'pending'`,
      failed: sql`status = 'failed'`,
      also: sql`last_error = ${reason}, updated_at = now()`,
    });
    if (outcome !== 'failed') return false;
    await trx.insertInto('deliveryEvents').values({ deliveryId: delivery.id, type: 'failed', url: null }).execute();
    // No `email.failed` type: an email that never left is not an event of the person's.
    if (delivery.channel === 'sms') await recordEvents(trx, delivery.userId, [smsFailedEvent(ref, reason)]);
    return true;
  });
  if (!failed) return false;
  await driver.failed?.(delivery, reason);
  return true;
}
