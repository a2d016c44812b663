import { sql, type Channel, type Db } from '@lampstand/db';
import type { JobQueue } from '../../jobs.js';

/**
 * The sweep for one channel (every minute, and at start with `force`): resume campaigns left
 * sending by a worker that died, and start overdue scheduled ones. Without `force`, a sending
 * campaign is resumed only when it looks stuck: work is claimable now, yet nothing moved for 30 s.
 */
export async function sweepCampaigns(
  deps: { db: Db; jobs: JobQueue; claimLeaseSeconds: number },
  channel: Channel,
  startScheduled: (campaignId: number, scheduledFor: string) => Promise<void>,
  opts: { force?: boolean } = {},
): Promise<void> {
  const table = sql.table(channel === 'email' ? 'email_campaigns' : 'sms_campaigns');
  const stuck = opts.force
    ? sql<boolean>`true`
    : sql<boolean>`coalesce((
        select count(*) filter (where (d.status = 'pending' and coalesce(d.next_attempt_at, now()) <= now())
                                   or (d.status = 'sending' and d.claimed_at < now() - make_interval(secs => ${deps.claimLeaseSeconds}))) > 0
               and max(d.updated_at) < now() - interval '30 seconds'
        from deliveries d where d.channel = ${channel} and d.campaign_id = c.id and d.status in ('pending', 'sending')
      ), true)`;
  const sending = await sql<{
    id: number;
  }>`select c.id from ${table} c where c.status = 'sending' and ${stuck}`.execute(deps.db);
  for (const c of sending.rows) await deps.jobs.send('campaign-deliver', { channel, campaignId: c.id });
  const overdue = await sql<{ id: number; scheduledFor: Date }>`
    select id, scheduled_for from ${table} where status = 'scheduled' and scheduled_for <= now()`.execute(deps.db);
  for (const c of overdue.rows) await startScheduled(c.id, new Date(c.scheduledFor).toISOString());
}
