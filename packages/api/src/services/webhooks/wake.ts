import { sql, type Db } from '@lampstand/db';

/**
 * The channels webhook workers listen on: events were recorded for a church with an endpoint
 * (dispatch them), or a delivery is due now (send it). A notification is delivered at commit, so a
 * worker woken by one sees what was written; a periodic sweep covers a missed one.
 */
export const EVENTS_CHANNEL = 'lampstand_events';
export const WEBHOOKS_CHANNEL = 'lampstand_webhooks';

/** Wake the workers to send deliveries due now (a test event, a redelivery, an endpoint turned back on). */
export async function wakeWebhookWorkers(db: Db): Promise<void> {
  await sql`select pg_notify(${WEBHOOKS_CHANNEL}, '')`.execute(db);
}
