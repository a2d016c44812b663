import type { Db, Row } from '@lampstand/db';
import { badRequest, notFound } from '../../errors.js';
import { TEST_EVENT_TYPE, type WebhookDeliveryOut } from '../../schemas/webhooks.js';
import { findChurchRow } from '../church-rows.js';
import { wakeWebhookWorkers } from './wake.js';

const COLUMNS = [
  'id',
  'eventId',
  'type',
  'messageId',
  'status',
  'attempts',
  'responseStatus',
  'durationMs',
  'responseExcerpt',
  'lastAttemptAt',
  'nextAttemptAt',
  'createdAt',
  'deliveredAt',
] as const;

function toDeliveryOut(row: Pick<Row<'webhookDeliveries'>, (typeof COLUMNS)[number]>): WebhookDeliveryOut {
  return {
    id: row.id,
    eventId: row.eventId,
    type: row.type,
    messageId: row.messageId,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    durationMs: row.durationMs,
    response: row.responseExcerpt,
    lastAttemptAt: row.lastAttemptAt,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt : null,
    createdAt: row.createdAt,
    deliveredAt: row.deliveredAt,
  };
}

const endpointOf = (db: Db, tenantId: number, id: number) =>
  findChurchRow(db, tenantId, {
    table: 'webhookEndpoints',
    id,
    missing: 'Webhook not found',
    columns: ['id', 'disabledAt'],
  });

/** An endpoint's deliveries, newest first, before `before`. */
export async function listWebhookDeliveries(
  db: Db,
  tenantId: number,
  input: { id: number; before?: number; limit: number },
): Promise<{ deliveries: WebhookDeliveryOut[]; next: number | null }> {
  await endpointOf(db, tenantId, input.id);
  let q = db
    .selectFrom('webhookDeliveries')
    .select(COLUMNS)
    .where('endpointId', '=', input.id)
    .where('userId', '=', tenantId);
  if (input.before !== undefined) q = q.where('id', '<', input.before);
  const rows = await q
    .orderBy('id', 'desc')
    .limit(input.limit + 1)
    .execute();
  const deliveries = rows.slice(0, input.limit).map(toDeliveryOut);
  return { deliveries, next: rows.length > input.limit ? deliveries.at(-1)!.id : null };
}

export const ENDPOINT_DISABLED = 'This endpoint is turned off: turn it on first';

/** A `webhook.test` delivery to the endpoint, sent by a worker at once. */
export async function sendTestWebhook(db: Db, tenantId: number, { id }: { id: number }): Promise<WebhookDeliveryOut> {
  const endpoint = await endpointOf(db, tenantId, id);
  if (endpoint.disabledAt) throw badRequest(ENDPOINT_DISABLED);
  const row = await db
    .insertInto('webhookDeliveries')
    .values({
      userId: tenantId,
      endpointId: id,
      type: TEST_EVENT_TYPE,
      payload: JSON.stringify({ message: 'A test event from Lampstand', webhookId: id }),
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  await wakeWebhookWorkers(db);
  return toDeliveryOut(row);
}

/**
 * Send a delivery again now, with the same `webhook-id` (a receiver that has it already can skip
 * it), as one more attempt; a failure retries on the usual schedule from there.
 */
export async function redeliverWebhook(
  db: Db,
  tenantId: number,
  input: { id: number; deliveryId: number },
): Promise<WebhookDeliveryOut> {
  const endpoint = await endpointOf(db, tenantId, input.id);
  if (endpoint.disabledAt) throw badRequest(ENDPOINT_DISABLED);
  const row = await db
    .updateTable('webhookDeliveries')
    .set({ status: 'pending', nextAttemptAt: new Date(), leaseUntil: null })
    .where('id', '=', input.deliveryId)
    .where('endpointId', '=', input.id)
    .where('userId', '=', tenantId)
    .returning(COLUMNS)
    .executeTakeFirst();
  if (!row) throw notFound('Delivery not found');
  await wakeWebhookWorkers(db);
  return toDeliveryOut(row);
}
