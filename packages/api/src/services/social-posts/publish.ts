import { openSecret, sql, type Db, type Row } from '@lampstand/db';
import type { JobQueue } from '../../jobs.js';
import type { SocialPublisher } from '../../providers/social-webhook.js';
import {
  claimLeased,
  failLeased,
  finishLeased,
  renewLease,
  type Claimed,
  type FailedTry,
  type Lease,
  type LeasedTable,
} from '../background/claim.js';
import type { DeliveryConfig } from '../delivery/config.js';
import { deliveryBackoff, failureReason, isPermanent } from '../delivery/retry.js';
import { recordEvent } from '../events/record.js';

/** A post as its events name it: its opening words (a post has no title). */
export function postRef(p: { id: number; content: string }): { id: number; name: string } {
  const words = p.content.replace(/\s+/g, ' ').trim();
  return { id: p.id, name: words.length > 60 ? `${words.slice(0, 59)}…` : words };
}

// Social posts as a channel of the delivery engine: the same guarantees as email and SMS
// deliveries (the claim primitive's claim, a lease renewed with fencing just before the send, a
// record only after the receiver's 2xx, the engine's one retry policy `deliveryBackoff`, then
// failed with the reason), with the post itself as the one "delivery". The driver below
// says what to claim, how to send and how to record; `publishDueSocialPosts` is the loop that
// runs it. Why this is not an entry of the campaign registry `CHANNELS`: see delivery/campaigns.ts.

export interface SocialPublishDeps {
  db: Db;
  jobs: JobQueue;
  config: Pick<DeliveryConfig, 'publicUrl' | 'claimLeaseSeconds' | 'maxAttempts' | 'retryBaseSeconds'>;
  publisher: SocialPublisher;
}

/** A post claimed for publishing, with what the send needs. */
export interface ClaimedPost {
  id: number;
  userId: number;
  content: string;
  scheduledFor: Date;
  platforms: string[];
  imageUrl: string | null;
  linkUrl: string | null;
  tags: string[];
  /** Our claim (its try is `lease.attempt`): the fence every later write checks. */
  lease: Lease;
  webhookUrl: string;
  webhookSecret: string;
  churchName: string;
}

/** What the engine needs from a channel whose unit of work is a row of its own table. */
export interface RowChannelDriver<T> {
  channel: 'social';
  /** Claim due rows (optionally one): FOR UPDATE SKIP LOCKED, stamping a lease. */
  claim(opts: { id?: number; limit: number }): Promise<T[]>;
  /** Renew our lease just before the send; null when another worker took the row or it changed. */
  renew(item: T): Promise<T | null>;
  send(item: T): Promise<{ providerMessageId: string | null }>;
  recordSuccess(item: T, result: { providerMessageId: string | null }): Promise<void>;
  /** A failed send, while still ours: due again after its back-off, or failed for good. */
  recordFailure(item: T, err: unknown): Promise<FailedTry>;
  /** When rows of `id` may be claimable next (a retry time, or a dead worker's lease running out). */
  nextCheck(id: number): Promise<Date | null>;
}

/** Social posts as the claim primitive reads them: the claim's time, its try, a retry's time. */
const POST_LEASES: LeasedTable = {
  table: 'social_posts',
  lease: 'publish_claimed_at',
  holds: 'since',
  attempts: 'publish_attempts',
  retryAt: 'publish_next_attempt_at',
};

type PostRow = Row<'socialPosts'>;

/** The claimed posts with what their send needs: the church's webhook (opened) and name; none without a webhook. */
async function withReceivers(db: Db, claimed: Claimed<PostRow>[]): Promise<ClaimedPost[]> {
  if (claimed.length === 0) return [];
  const churches = await db
    .selectFrom('socialSettings as s')
    .innerJoin('users as u', 'u.id', 's.userId')
    .select(['s.userId', 's.webhookUrl', 's.webhookSecret', 'u.churchName'])
    .where('s.userId', 'in', [...new Set(claimed.map((c) => c.row.userId))])
    .where('s.webhookUrl', 'is not', null)
    .where('s.webhookSecret', 'is not', null)
    .execute();
  const byChurch = new Map(churches.map((c) => [c.userId, c]));
  return claimed.flatMap(({ row: p, lease }) => {
    const church = byChurch.get(p.userId);
    if (!church) return [];
    return [
      {
        id: p.id,
        userId: p.userId,
        content: p.content,
        scheduledFor: new Date(p.scheduledFor),
        platforms: p.platforms ?? [],
        imageUrl: p.imageUrl ?? null,
        linkUrl: p.linkUrl ?? null,
        tags: p.tags ?? [],
        lease,
        webhookUrl: church.webhookUrl!,
        webhookSecret: openSecret(church.webhookSecret!),
        churchName: church.churchName,
      },
    ];
  });
}

/** The JSON a receiver gets (documented in the README): the post, absolute URLs, and the church. */
function socialWebhookBody(post: ClaimedPost, publicUrl: string): string {
  const absolute = (u: string | null) => (u && u.startsWith('/') ? `${publicUrl}${u}` : u);
  return JSON.stringify({
    event: 'social_post.publish',
    idempotencyKey: idempotencyKey(post),
    post: {
      id: post.id,
      content: post.content,
      platforms: post.platforms,
      imageUrl: absolute(post.imageUrl),
      linkUrl: post.linkUrl,
      tags: post.tags,
      scheduledFor: post.scheduledFor.toISOString(),
    },
    church: { id: post.userId, name: post.churchName },
    attempt: post.lease.attempt,
  });
}

const idempotencyKey = (p: { id: number; scheduledFor: Date }) => `social-post-${p.id}-${p.scheduledFor.getTime()}`;

function socialDriver(deps: SocialPublishDeps): RowChannelDriver<ClaimedPost> {
  const { db, config, publisher } = deps;
  const lease = config.claimLeaseSeconds;
  return {
    channel: 'social',
    async claim({ id, limit }) {
      // A post is due when its time has come, its church has a webhook and no retry is waiting.
      const claimed = await claimLeased<PostRow>(db, POST_LEASES, {
        join: sql`join social_settings s on s.user_id = x.user_id`,
        due: sql`x.status = 'scheduled' and x.scheduled_for <= now()
          and s.webhook_url is not null and s.webhook_secret is not null
          and (x.publish_next_attempt_at is null or x.publish_next_attempt_at <= now())
          ${id === undefined ? sql`` : sql`and x.id = ${id}`}`,
        order: sql`x.scheduled_for, x.id`,
        limit,
        leaseSeconds: lease,
      });
      const posts = await withReceivers(db, claimed);
      // A church whose webhook went between the claim and its read: its posts are let go at once.
      for (const c of claimed)
        if (!posts.some((p) => p.id === c.lease.id)) await finishLeased(db, POST_LEASES, c.lease);
      return posts;
    },
    async renew(item) {
      // Fencing: still ours, still scheduled for a time that has come. The post is read again, so
      // an edit made since the claim is what goes out.
      const renewed = await renewLease<PostRow>(db, POST_LEASES, item.lease, {
        leaseSeconds: lease,
        where: sql`t.status = 'scheduled' and t.scheduled_for <= now()`,
      });
      const [fresh] = renewed ? await withReceivers(db, [renewed]) : [];
      if (fresh) return fresh;
      // Not ours any more, or changed (its webhook removed): let go of the claim if we still hold it.
      await finishLeased(db, POST_LEASES, renewed?.lease ?? item.lease);
      return null;
    },
    async send(item) {
      const { responseId } = await publisher.publish({
        url: item.webhookUrl,
        secret: item.webhookSecret,
        body: socialWebhookBody(item, config.publicUrl),
        idempotencyKey: idempotencyKey(item),
      });
      return { providerMessageId: responseId };
    },
    async recordSuccess(item, result) {
      // Recorded even when our lease ran out meanwhile: the receiver took the post, and a worker
      // that took it over finds it posted when it renews, so it is not sent a second time.
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('socialPosts')
          .set({
            status: 'posted',
            postedAt: new Date(),
            publishResponseId: result.providerMessageId,
            publishError: null,
            publishClaimedAt: null,
            publishNextAttemptAt: null,
            updatedAt: new Date(),
          })
          .where('id', '=', item.id)
          .execute();
        await recordEvent(trx, item.userId, {
          type: 'social_post.published',
          payload: { post: postRef(item), platforms: item.platforms },
        });
      });
    },
    async recordFailure(item, err) {
      const reason = failureReason(err);
      return db.transaction().execute(async (trx) => {
        const failed = await failLeased(trx, POST_LEASES, item.lease, {
          backoff: deliveryBackoff(config),
          giveUp: isPermanent(err),
          failed: sql`status = 'failed', publish_next_attempt_at = null`,
          also: sql`publish_error = ${reason}, updated_at = now()`,
        });
        if (failed.outcome === 'failed')
          await recordEvent(trx, item.userId, {
            type: 'social_post.failed',
            payload: { post: postRef(item), platforms: item.platforms, reason },
          });
        return failed;
      });
    },
    async nextCheck(id) {
      const row = await db
        .selectFrom('socialPosts')
        .select(['status', 'scheduledFor', 'publishNextAttemptAt', 'publishClaimedAt'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row || row.status !== 'scheduled') return null;
      if (row.publishClaimedAt) return new Date(row.publishClaimedAt.getTime() + lease * 1000 + 500);
      if (row.publishNextAttemptAt && row.publishNextAttemptAt.getTime() > Date.now()) return row.publishNextAttemptAt;
      return null;
    },
  };
}

export interface PublishResult {
  posted: number;
  failed: number;
  retrying: number;
}

/**
 * Publish due posts: claim, renew, send, record. A failure is retried with backoff
 * (retryBaseSeconds, doubling) up to maxAttempts, then the post is failed with the reason; 4xx
 * answers fail at once.
 *
 * With `postId` (the job queued for that post's time), that post first: when it is not claimable
 * now because a retry is waiting or another worker holds it (perhaps a dead one), its job comes
 * back at that time. Then, unless `onlyThatPost`, every other post that is due, ten claims at a
 * time: a worker polls for jobs every couple of seconds, so one job per post would publish a few
 * posts a second however many were due at 9:00 (4/s in `pnpm bench:scale`); the jobs of the other
 * posts then find theirs done. Claims skip locked rows, so every worker drains together.
 */
export async function publishDueSocialPosts(
  deps: SocialPublishDeps,
  opts: { postId?: number; onlyThatPost?: boolean } = {},
): Promise<PublishResult> {
  const driver = socialDriver(deps);
  const result: PublishResult = { posted: 0, failed: 0, retrying: 0 };
  if (opts.postId !== undefined) {
    await publishBatch(deps, driver, await driver.claim({ id: opts.postId, limit: 1 }), result);
    if (result.posted + result.failed + result.retrying === 0) {
      const at = await driver.nextCheck(opts.postId);
      if (at)
        await deps.jobs.send(
          'social-post-publish',
          { postId: opts.postId },
          { startAfter: at, singletonKey: `social-post-${opts.postId}-check-${at.getTime()}` },
        );
    }
    if (opts.onlyThatPost) return result;
  }
  for (;;) {
    const batch = await driver.claim({ limit: 10 });
    if (batch.length === 0) return result;
    await publishBatch(deps, driver, batch, result);
  }
}

async function publishBatch(
  deps: SocialPublishDeps,
  driver: RowChannelDriver<ClaimedPost>,
  batch: ClaimedPost[],
  result: PublishResult,
): Promise<void> {
  for (const claimed of batch) {
    const item = await driver.renew(claimed);
    if (!item) continue;
    try {
      const sent = await driver.send(item);
      await driver.recordSuccess(item, sent);
      result.posted++;
    } catch (err) {
      const { outcome, retryAt } = await driver.recordFailure(item, err);
      if (outcome === 'failed') result.failed++;
      else if (outcome === 'retry') {
        result.retrying++;
        await deps.jobs.send(
          'social-post-publish',
          { postId: item.id },
          { startAfter: retryAt!, singletonKey: `social-post-${item.id}-try-${item.lease.attempt + 1}` },
        );
      }
    }
  }
}

/**
 * Queue a scheduled post's publish at its time (once per post and time) and remember the job on
 * the post; a job queued for an earlier time or status is cancelled. A post that is not
 * scheduled (a draft, posted, failed) has no job.
 */
export async function scheduleSocialPublish(
  deps: { db: Db; jobs: JobQueue },
  row: { id: number; status: string; scheduledFor: Date; publishJobId: string | null },
  opts: { replanned: boolean } = { replanned: true },
): Promise<void> {
  if (!opts.replanned) return;
  await cancelSocialPublish(deps.jobs, row);
  const jobId =
    row.status === 'scheduled'
      ? await deps.jobs.send(
          'social-post-publish',
          { postId: row.id },
          { startAfter: row.scheduledFor, singletonKey: `social-post-${row.id}-at-${row.scheduledFor.getTime()}` },
        )
      : null;
  await deps.db.updateTable('socialPosts').set({ publishJobId: jobId }).where('id', '=', row.id).execute();
}

/** Cancel the job queued for a post's time, if any (a post deleted or moved before it). */
export async function cancelSocialPublish(jobs: JobQueue, row: { publishJobId: string | null }): Promise<void> {
  if (row.publishJobId) await jobs.cancel('social-post-publish', row.publishJobId);
}

/** Jobs that publish every due post together (see publishDueSocialPosts), queued by the sweep. */
export const SOCIAL_DRAIN_JOBS = 4;

/**
 * Every minute (and at start with `force`): publish posts that are due but have no job coming (a
 * lost job, a worker that died mid-publish, a webhook set after their time) with a few jobs that
 * publish every due post, up to SOCIAL_DRAIN_JOBS of them. A post another worker holds is looked
 * at again when that lease runs out. Without `force`, only posts due for more than 30 s, so the
 * sweep does not race each post's own job.
 */
export async function sweepSocialPosts(deps: SocialPublishDeps, opts: { force?: boolean } = {}): Promise<void> {
  const grace = opts.force ? 0 : 30;
  const lease = deps.config.claimLeaseSeconds;
  const { rows } = await sql<{ id: number; claimedAt: Date | null }>`
    select p.id, p.publish_claimed_at as claimed_at from social_posts p
    join social_settings s on s.user_id = p.user_id
    where p.status = 'scheduled' and p.scheduled_for <= now() - make_interval(secs => ${grace})
      and s.webhook_url is not null and s.webhook_secret is not null
      and (p.publish_next_attempt_at is null or p.publish_next_attempt_at <= now() - make_interval(secs => ${grace}))
    order by p.scheduled_for
    limit 1000`.execute(deps.db);
  let free = 0;
  for (const r of rows) {
    const leaseEnd = r.claimedAt ? new Date(r.claimedAt).getTime() + lease * 1000 + 500 : 0;
    if (leaseEnd > Date.now())
      await deps.jobs.send(
        'social-post-publish',
        { postId: r.id },
        { startAfter: new Date(leaseEnd), singletonKey: `social-post-${r.id}-lease-${leaseEnd}` },
      );
    else free++;
  }
  for (let i = 0; i < Math.min(free, SOCIAL_DRAIN_JOBS); i++)
    // One waiting per key (the queue's policy), not one per time slot: a slot's job that had already
    // run kept a webhook set moments later from being drained until the next minute's sweep.
    await deps.jobs.send('social-post-drain', {}, { singletonKey: `social-drain-${i}` });
}
