import type { Db } from '@lampstand/db';
import type { SmsTransport } from '../../providers/sms.js';
import type { JobQueue } from '../../jobs.js';
import type { DeliveryConfig } from '../delivery/config.js';
import { runDeliveries, type ChannelDriver, type RunResult } from '../delivery/engine.js';
import { sweepCampaigns } from '../delivery/sweep.js';
import { fillMergeTags } from '../email-campaigns/render.js';
import { startSmsCampaign } from './campaigns.js';

export interface SmsDeliveryDeps {
  db: Db;
  sms: SmsTransport;
  jobs: JobQueue;
  config: DeliveryConfig;
}

interface LoadedCampaign {
  id: number;
  userId: number;
  content: string;
  churchName: string;
  from: string;
}

export function smsDriver(deps: SmsDeliveryDeps): ChannelDriver<LoadedCampaign> {
  const { db, sms, config } = deps;
  return {
    channel: 'sms',
    ratePerSecond: config.smsRatePerSecond,
    concurrency: config.smsConcurrency,
    async load(campaignId) {
      const c = await db
        .selectFrom('smsCampaigns as c')
        .innerJoin('users as u', 'u.id', 'c.userId')
        .leftJoin('churchSettings as s', 's.userId', 'c.userId')
        .select(['c.id', 'c.userId', 'c.content', 'c.status', 'u.churchName', 's.smsFromNumber'])
        .where('c.id', '=', campaignId)
        .executeTakeFirst();
      if (!c || c.status !== 'sending') return null;
      return {
        id: c.id,
        userId: c.userId,
        content: c.content,
        churchName: c.churchName,
        from: c.smsFromNumber || config.smsFromNumber,
      };
    },
    async send(c, d) {
      return sms.send({
        to: d.address,
        from: c.from,
        body: fillMergeTags(
          c.content,
          { firstName: d.firstName, lastName: d.lastName, churchName: c.churchName },
          { html: false },
        ),
        statusCallback: `${config.publicUrl}/api/sms/status`,
        meta: { userId: c.userId, campaignId: c.id, deliveryId: d.id },
      });
    },
    async finish(campaignId, outcome) {
      await db
        .updateTable('smsCampaigns')
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

export async function deliverSmsCampaign(deps: SmsDeliveryDeps, campaignId: number): Promise<RunResult> {
  const result = await runDeliveries(deps.db, smsDriver(deps), campaignId, deps.config);
  if (!result.finished && result.retryAt)
    await deps.jobs.send('campaign-deliver', { channel: 'sms', campaignId }, { startAfter: result.retryAt });
  return result;
}

export async function startScheduledSmsCampaign(
  deps: SmsDeliveryDeps,
  campaignId: number,
  scheduledFor: string,
): Promise<void> {
  const c = await deps.db.selectFrom('smsCampaigns').select('userId').where('id', '=', campaignId).executeTakeFirst();
  if (!c) return;
  try {
    await startSmsCampaign(deps.db, deps.jobs, c.userId, campaignId, { onlyIfScheduledFor: new Date(scheduledFor) });
  } catch (err) {
    await deps.db
      .updateTable('smsCampaigns')
      .set({ status: 'failed', error: err instanceof Error ? err.message : String(err), updatedAt: new Date() })
      .where('id', '=', campaignId)
      .where('status', '=', 'scheduled')
      .execute();
  }
}

/** The 'campaign-sweep' job for SMS (see sweepCampaigns). */
export async function sweepSmsCampaigns(deps: SmsDeliveryDeps, opts: { force?: boolean } = {}): Promise<void> {
  await sweepCampaigns(
    { db: deps.db, jobs: deps.jobs, claimLeaseSeconds: deps.config.claimLeaseSeconds },
    'sms',
    (id, at) => startScheduledSmsCampaign(deps, id, at),
    opts,
  );
}
