import { sql, type Channel, type Db, type DeliveryKind } from '@lampstand/db';
import { type SendingLimit } from '../../schemas/account.js';
import { overDailyLimitMessage } from '../../shared/account.js';
import { tooManyRequests } from '../../errors.js';

/** People a day that campaigns of a church with an unverified account email reach. */
export const UNVERIFIED_DAILY_RECIPIENTS = 100;

/**
 * A church's daily limit: an administrator's own number if set; otherwise `unverifiedLimit` until
 * the account email is verified, and none after. Counted over the last 24 hours (a rolling window,
 * the same for every time zone) from what each campaign start enqueued, email and SMS together.
 */
export async function getSendingLimit(
  db: Db,
  tenantId: number,
  unverifiedLimit = UNVERIFIED_DAILY_RECIPIENTS,
): Promise<SendingLimit> {
  const row = await db
    .selectFrom('users')
    .select([
      'email',
      'emailVerifiedAt',
      'dailyRecipientLimit',
      sql<number>`(select coalesce(sum(recipients), 0)::int from campaign_recipient_usage u
                   where u.user_id = users.id and u.created_at > now() - interval '24 hours')`.as('used'),
    ])
    .where('id', '=', tenantId)
    .executeTakeFirstOrThrow();
  const verified = row.emailVerifiedAt !== null;
  const limit = row.dailyRecipientLimit ?? (verified ? null : unverifiedLimit);
  const used = Number(row.used);
  return {
    email: row.email,
    emailVerified: verified,
    emailVerifiedAt: row.emailVerifiedAt?.toISOString() ?? null,
    limit,
    source: row.dailyRecipientLimit !== null ? 'admin' : limit === null ? 'none' : 'unverified',
    usedLast24h: used,
    remaining: limit === null ? null : Math.max(0, limit - used),
  };
}

/**
 * Inside a campaign's start transaction (or a planner's requests'), after its deliveries are
 * written: refuse (429, the transaction rolls back) when they would pass the church's daily limit,
 * else record them. Starts of one church are serialized by an advisory lock, so two sends cannot
 * both slip under it.
 */
export async function takeDailyAllowance(
  trx: Db,
  tenantId: number,
  o: {
    channel: Channel;
    /** A campaign's start by default; planner requests have no campaign (`campaignId` null). */
    kind?: Exclude<DeliveryKind, 'conversation-digest'>;
    campaignId: number | null;
    recipients: number;
    unverifiedLimit?: number;
  },
): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('lampstand:daily-recipients'), ${tenantId})`.execute(trx);
  const limit = await getSendingLimit(trx, tenantId, o.unverifiedLimit);
  const kind = o.kind ?? 'campaign';
  if (limit.remaining !== null && o.recipients > limit.remaining)
    throw tooManyRequests(
      overDailyLimitMessage(
        limit,
        o.recipients,
        kind === 'campaign' ? 'This campaign' : kind === 'conversation-reply' ? 'This reply' : 'These requests',
      ),
    );
  await trx
    .insertInto('campaignRecipientUsage')
    .values({ userId: tenantId, channel: o.channel, kind, campaignId: o.campaignId, recipients: o.recipients })
    .execute();
}
