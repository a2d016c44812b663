import type { Db } from '@lampstand/db';
import type { EmailTransport } from '../../providers/email.js';
import type { JobQueue } from '../../jobs.js';
import type { DeliveryConfig } from '../delivery/config.js';
import { runDeliveries, type ChannelDriver, type RunResult } from '../delivery/engine.js';
import { sweepCampaigns } from '../delivery/sweep.js';
import { renderEmail } from './render.js';
import { startEmailCampaign } from './campaigns.js';

export interface EmailDeliveryDeps {
  db: Db;
  email: EmailTransport;
  jobs: JobQueue;
  config: DeliveryConfig;
}

interface LoadedCampaign {
  id: number;
  userId: number;
  subject: string;
  content: string;
  churchName: string;
  postalAddress: string | null;
}

export function emailDriver(deps: EmailDeliveryDeps): ChannelDriver<LoadedCampaign> {
  const { db, email, config } = deps;
  return {
    channel: 'email',
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
    async finish(campaignId, outcome) {
      await db
        .updateTable('emailCampaigns')
        .set({
          status: outcome,
          sentAt: new Date(),
          error: outcome === 'failed' ? 'No message could be delivered' : null,
          updatedAt: new Date(),
        })
        .where('id', '=', campaignId)
        .where('status', '=', 'sending')
        .execute();
    },
  };
}

/** "Grace Church <news@lampstand.example>": the church's name on the configured sending address. */
export function formatFrom(churchName: string, emailFrom: string): string {
  const address = /<([^>]+)>/.exec(emailFrom)?.[1] ?? emailFrom;
  return `"${churchName.replace(/["\\]/g, '')}" <${address}>`;
}

/** The 'campaign-deliver' job: send what is pending; come back later for retries. */
export async function deliverEmailCampaign(deps: EmailDeliveryDeps, campaignId: number): Promise<RunResult> {
  const result = await runDeliveries(deps.db, emailDriver(deps), campaignId, deps.config);
  if (!result.finished && result.retryAt) {
    // Each run schedules at most one follow-up, so the number of runs per campaign stays bounded.
    await deps.jobs.send('campaign-deliver', { channel: 'email', campaignId }, { startAfter: result.retryAt });
  }
  return result;
}

/** The 'campaign-start' job, at a scheduled campaign's time. */
export async function startScheduledEmailCampaign(
  deps: EmailDeliveryDeps,
  campaignId: number,
  scheduledFor: string,
): Promise<void> {
  const c = await deps.db
    .selectFrom('emailCampaigns')
    .select(['userId'])
    .where('id', '=', campaignId)
    .executeTakeFirst();
  if (!c) return;
  try {
    await startEmailCampaign(deps.db, deps.jobs, c.userId, campaignId, { onlyIfScheduledFor: new Date(scheduledFor) });
  } catch (err) {
    // Nothing to send (e.g. the list emptied): the campaign fails with the reason instead of waiting forever.
    await deps.db
      .updateTable('emailCampaigns')
      .set({ status: 'failed', error: err instanceof Error ? err.message : String(err), updatedAt: new Date() })
      .where('id', '=', campaignId)
      .where('status', '=', 'scheduled')
      .execute();
  }
}

/** The 'campaign-sweep' job for email (see sweepCampaigns). */
export async function sweepEmailCampaigns(deps: EmailDeliveryDeps, opts: { force?: boolean } = {}): Promise<void> {
  await sweepCampaigns(
    { db: deps.db, jobs: deps.jobs, claimLeaseSeconds: deps.config.claimLeaseSeconds },
    'email',
    (id, at) => startScheduledEmailCampaign(deps, id, at),
    opts,
  );
}
