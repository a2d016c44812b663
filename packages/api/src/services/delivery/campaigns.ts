import { sql, type Channel } from '@lampstand/db';
import { AppError, badRequest, conflict, notFound } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import type { Db } from '@lampstand/db';
import {
  channelDriver,
  insertDeliveries,
  type CampaignChannel,
  type CampaignRow,
  type DeliveryDeps,
} from './channels.js';
import { runDeliveries, type RunResult } from './engine.js';
import { leaseFree } from '../background/claim.js';
import { DELIVERY_LEASES, satStill } from './leases.js';
import { takeDailyAllowance } from './daily-limit.js';
import { emailChannel } from '../email-campaigns/channel.js';
import { smsChannel } from '../sms-campaigns/channel.js';
import { sweepPlannerRequests } from '../service-planner/request-channel.js';
import { sweepConversationReplies } from '../conversations/reply-channel.js';
import { sweepStatementDeliveries } from '../giving/statements.js';
import { sweepPortalMessages } from '../portal/messages.js';
import { sweepRegistrationMessages } from '../calendar/messages.js';
import { sweepGroupMessages } from '../groups/messages.js';

/**
 * The channel registry: a new campaign channel is one entry here (and its own `channel.ts`).
 *
 * Social posts are not an entry, on purpose. An entry is a *campaign to many recipients*: it is
 * started from `startable` statuses with `listIds`, snapshots one `deliveries` row per contact
 * (the table's `channel` column, its unique (campaign, contact) key, open and click events), and
 * is finished as `sent` when every delivery is done; the sweep resumes rows in status `sending`.
 * A social post has no recipients and no list: its one unit of work is the post itself, sent once
 * to the church's webhook, and its statuses are the spec's scheduled / posted / failed / draft
 * (no `sending`). Forcing it in would mean a fake contact per post in `deliveries`, a `sending`
 * status the spec does not have, and `startCampaign` checks (a list, recipients) that must not
 * apply. What the two share is the part that is really the same: the retry policy
 * (`retryOutcome` in engine.ts: tries, backoff, permanent errors), the delivery configuration
 * (`DeliveryConfig`: lease, attempts, base delay), and the same claim / fenced renew / record
 * protocol, written for a row of its own table (`RowChannelDriver` in social-posts/publish.ts).
 *
 * Planner requests are not an entry either, but they are deliveries: rows of `deliveries` of kind
 * 'planner-request' (one per person asked, grouped by service plan), run by this same engine
 * (`runDeliveries` with the driver in service-planner/request-channel.ts) with the email rate slot,
 * retries, claim fence and daily limit. What they lack is only the campaign part: lists, a
 * campaign row to start and finish.
 */
export const CHANNELS: Record<Channel, CampaignChannel> = { email: emailChannel, sms: smsChannel };

/**
 * Delivery jobs queued per campaign. A worker process runs up to 4 of them at once (see the
 * server's jobs/queue.ts) and its pollers fetch together, so with only 2 one process would take
 * both: 8 leaves work for a second process, and the survivors still hold jobs when one dies.
 */
export const DELIVERY_JOBS_PER_CAMPAIGN = 8;

/**
 * Send = snapshot, then deliver. In one transaction: lock the campaign, check it can be sent, write
 * one delivery per recipient, check and record them against the church's daily limit
 * (`daily-limit.ts`), and mark it sending. Then queue `concurrency` delivery jobs
 * (DELIVERY_JOBS_PER_CAMPAIGN by default).
 * With `onlyIfScheduledFor` (the scheduled start), a campaign rescheduled, sent or returned to
 * draft meanwhile is left alone; answers whether it started.
 */
export async function startCampaign(
  db: Db,
  jobs: JobQueue,
  channel: Channel,
  tenantId: number,
  opts: { id: number; concurrency?: number; onlyIfScheduledFor?: Date; unverifiedDailyRecipients?: number },
): Promise<boolean> {
  const ch = CHANNELS[channel];
  const table = sql.table(ch.table);
  const started = await db.transaction().execute(async (trx) => {
    const { rows } = await sql<Record<string, unknown>>`
      select * from ${table} where id = ${opts.id} and user_id = ${tenantId} for update`.execute(trx);
    const r = rows[0];
    if (!r) throw notFound('Campaign not found');
    const c: CampaignRow = {
      id: r.id as number,
      userId: r.userId as number,
      status: r.status as string,
      scheduledFor: (r.scheduledFor as Date | null) ?? null,
      listIds: (r.listIds as number[] | null) ?? [],
      fields: r,
    };
    const due = opts.onlyIfScheduledFor;
    if (due && (c.status !== 'scheduled' || c.scheduledFor?.getTime() !== due.getTime())) return false;
    if (!ch.startable.includes(c.status)) throw conflict('This campaign has already been sent');
    ch.validate(c);
    if (c.listIds.length === 0) throw badRequest('Please select a contact list');
    const count = await insertDeliveries(trx, ch, c);
    if (count === 0) throw badRequest(ch.noRecipients);
    await takeDailyAllowance(trx, tenantId, {
      channel,
      campaignId: opts.id,
      recipients: count,
      unverifiedLimit: opts.unverifiedDailyRecipients,
    });
    await sql`
      update ${table} set status = 'sending', started_at = now(), recipient_count = ${count}, error = null, updated_at = now()
      where id = ${opts.id}`.execute(trx);
    return true;
  });
  if (started) {
    for (let i = 0; i < Math.max(1, opts.concurrency ?? DELIVERY_JOBS_PER_CAMPAIGN); i++)
      await jobs.send('campaign-deliver', { channel, campaignId: opts.id });
  }
  return started;
}

/** The 'campaign-deliver' job: send what is pending; come back later for retries. */
export async function deliverCampaign(deps: DeliveryDeps, channel: Channel, campaignId: number): Promise<RunResult> {
  const result = await runDeliveries(deps.db, channelDriver(CHANNELS[channel], deps), campaignId, deps.config);
  if (!result.finished && result.retryAt) {
    // Each run schedules at most one follow-up, so the number of runs per campaign stays bounded.
    await deps.jobs.send('campaign-deliver', { channel, campaignId }, { startAfter: result.retryAt });
  }
  return result;
}

/**
 * The 'campaign-start' job, at a scheduled campaign's time. A campaign that cannot be sent (nobody
 * to send to, content missing, over the church's daily limit) fails with the reason instead of waiting forever; anything else (a
 * deadlock, a dropped connection) is rethrown so that pg-boss tries again.
 */
export async function startScheduledCampaign(
  deps: DeliveryDeps,
  channel: Channel,
  campaignId: number,
  scheduledFor: string,
): Promise<void> {
  const table = sql.table(CHANNELS[channel].table);
  const { rows } = await sql<{ userId: number }>`select user_id from ${table} where id = ${campaignId}`.execute(
    deps.db,
  );
  if (!rows[0]) return;
  try {
    await startCampaign(deps.db, deps.jobs, channel, rows[0].userId, {
      id: campaignId,
      onlyIfScheduledFor: new Date(scheduledFor),
      unverifiedDailyRecipients: deps.config.unverifiedDailyRecipients,
    });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    // Deleted or already sent meanwhile: nothing to do. Over the daily limit: failed, with the reason.
    if (err.code !== 'BAD_REQUEST' && err.code !== 'TOO_MANY_REQUESTS') return;
    await sql`
      update ${table} set status = 'failed', error = ${err.message}, updated_at = now()
      where id = ${campaignId} and status = 'scheduled'`.execute(deps.db);
  }
}

/**
 * The sweep (every minute, and at start with `force`), for every channel: resume campaigns left
 * sending by a worker that died, and start overdue scheduled ones; and planner requests left pending. Without `force`, a sending
 * campaign is resumed only when it looks stuck: work is claimable now, yet nothing moved for 30 s
 * (or the claim lease, when shorter: `stillSeconds`).
 */
export async function sweepCampaigns(deps: DeliveryDeps, opts: { force?: boolean } = {}): Promise<void> {
  for (const ch of Object.values(CHANNELS)) {
    const table = sql.table(ch.table);
    const stuck = opts.force
      ? sql<boolean>`true`
      : sql<boolean>`coalesce((
          select count(*) filter (where (d.status = 'pending' and coalesce(d.next_attempt_at, now()) <= now())
                                     or (d.status = 'sending' and ${leaseFree(DELIVERY_LEASES, 'd', { leaseSeconds: deps.config.claimLeaseSeconds })})) > 0
                 and ${satStill(deps.config.claimLeaseSeconds)}
          from deliveries d where d.channel = ${ch.channel} and d.campaign_id = c.id and d.status in ('pending', 'sending')
        ), true)`;
    const sending = await sql<{ id: number }>`
      select c.id from ${table} c where c.status = 'sending' and ${stuck}`.execute(deps.db);
    for (const c of sending.rows) await deps.jobs.send('campaign-deliver', { channel: ch.channel, campaignId: c.id });
    const overdue = await sql<{ id: number; scheduledFor: Date }>`
      select id, scheduled_for from ${table} where status = 'scheduled' and scheduled_for <= now()`.execute(deps.db);
    for (const c of overdue.rows)
      await startScheduledCampaign(deps, ch.channel, c.id, new Date(c.scheduledFor).toISOString());
  }
  await sweepPlannerRequests(deps, opts);
  await sweepConversationReplies(deps, opts);
  await sweepStatementDeliveries(deps, opts);
  await sweepPortalMessages(deps, opts);
  await sweepRegistrationMessages(deps, opts);
  await sweepGroupMessages(deps, opts);
}
