import type { Db } from '@lampstand/db';
import type { JobQueue } from '../../jobs.js';
import { createOutboxTransport } from '../../providers/email.js';
import { createSmsOutboxTransport } from '../../providers/sms.js';
import { defaultDeliveryConfig, type DeliveryConfig } from './config.js';
import type { DeliveryDeps } from './channels.js';

/**
 * For tests: what the sending side needs, with the local outboxes (email and SMS) and a job queue
 * that records what it was asked to run instead of running it.
 */
export function recordingDeliveryDeps(
  db: Db,
  config: Partial<DeliveryConfig> = {},
): { sent: { name: string; data: unknown }[]; jobs: JobQueue; deps: DeliveryDeps } {
  const sent: { name: string; data: unknown }[] = [];
  const jobs: JobQueue = { send: async (name, data) => (sent.push({ name, data }), 'id'), cancel: async () => {} };
  const deps: DeliveryDeps = {
    db,
    jobs,
    email: createOutboxTransport(db),
    sms: createSmsOutboxTransport(db),
    config: {
      ...defaultDeliveryConfig,
      publicUrl: 'http://localhost',
      trackingSecret: 'test-secret',
      emailFrom: 'Lampstand <no-reply@localhost>',
      smsFromNumber: '+15005550006',
      // The real clock's time of day must not hold a text (quiet hours are tested with a clock of their own).
      smsQuietHours: false,
      ...config,
    },
  };
  return { sent, jobs, deps };
}

/**
 * For tests: an email campaign of `churchId` in 'sending' with `recipients` pending deliveries
 * (p<i>.<campaign>@example.org), as a campaign start leaves it. Its id.
 */
export async function sendingCampaignWith(db: Db, churchId: number, recipients: number): Promise<number> {
  const c = await db
    .insertInto('emailCampaigns')
    .values({ userId: churchId, name: 'C', subject: 'S', content: 'x', status: 'sending' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('deliveries')
    .values(
      Array.from({ length: recipients }, (_, i) => ({
        userId: churchId,
        channel: 'email' as const,
        campaignId: c.id,
        address: `p${i}.${c.id}@example.org`,
        token: `${c.id}-${i}`.padStart(64, '0'),
      })),
    )
    .execute();
  return c.id;
}
