import { sql, type Db } from '@lampstand/db';
import { tooManyRequests } from '../../errors.js';

export interface BucketRule {
  /** Attempts allowed in the window. */
  limit: number;
  windowSeconds: number;
  /** After this many attempts in the window, each next one waits 1, 2, 4, … seconds (growing delays). */
  delayAfter?: number;
  /** The longest such delay (default 60 s). */
  maxDelaySeconds?: number;
}

export interface BucketVerdict {
  allowed: boolean;
  /** When refused: seconds until the next attempt can succeed. */
  retryAfterSeconds: number;
}

/**
 * Take one attempt from the bucket `key`, counting and deciding in one step under a row lock: of N
 * concurrent requests exactly `limit` are allowed, whichever instance serves them. Counted before
 * the work (a password check), so a burst cannot slip past the count.
 */
export async function takeAttempt(db: Db, key: string, rule: BucketRule): Promise<BucketVerdict> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('rateLimitBuckets')
      .values({ key })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    const row = await trx
      .selectFrom('rateLimitBuckets')
      .select([
        'count',
        sql<boolean>`window_start < clock_timestamp() - make_interval(secs => ${rule.windowSeconds})`.as('expired'),
        sql<number>`extract(epoch from (window_start + make_interval(secs => ${rule.windowSeconds}) - clock_timestamp()))`.as(
          'windowLeft',
        ),
        sql<number>`extract(epoch from (next_allowed_at - clock_timestamp()))`.as('delayLeft'),
      ])
      .where('key', '=', key)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const count = row.expired ? 0 : row.count;
    const delayLeft = row.expired ? 0 : Number(row.delayLeft);
    if (count >= rule.limit)
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(Number(row.windowLeft))) };
    if (delayLeft > 0) return { allowed: false, retryAfterSeconds: Math.ceil(delayLeft) };
    const next = count + 1;
    const delay =
      rule.delayAfter !== undefined && next > rule.delayAfter
        ? Math.min(2 ** (next - rule.delayAfter - 1), rule.maxDelaySeconds ?? 60)
        : 0;
    await trx
      .updateTable('rateLimitBuckets')
      .set({
        count: next,
        ...(row.expired ? { windowStart: sql<Date>`clock_timestamp()` } : {}),
        nextAllowedAt: sql<Date>`clock_timestamp() + make_interval(secs => ${delay})`,
      })
      .where('key', '=', key)
      .execute();
    return { allowed: true, retryAfterSeconds: 0 };
  });
}

/** Take one attempt, or refuse with a 429 carrying `message` and the `Retry-After` seconds. */
export async function throttle(db: Db, key: string, rule: BucketRule, message: string): Promise<void> {
  const verdict = await takeAttempt(db, key, rule);
  if (!verdict.allowed) throw tooManyRequests(message, verdict.retryAfterSeconds);
}

/** Attempts left in the bucket's current window, without taking one. */
export async function attemptsLeft(db: Db, key: string, rule: BucketRule): Promise<number> {
  const row = await db
    .selectFrom('rateLimitBuckets')
    .select([
      'count',
      sql<boolean>`window_start < clock_timestamp() - make_interval(secs => ${rule.windowSeconds})`.as('expired'),
    ])
    .where('key', '=', key)
    .executeTakeFirst();
  return Math.max(0, rule.limit - (!row || row.expired ? 0 : row.count));
}

/** Give one attempt back (a login that succeeded counts no failure against its address). */
export async function releaseAttempt(db: Db, key: string): Promise<void> {
  await db
    .updateTable('rateLimitBuckets')
    .set({ count: sql<number>`greatest(count - 1, 0)`, nextAllowedAt: sql<Date>`clock_timestamp()` })
    .where('key', '=', key)
    .execute();
}

/** Forget a bucket (a successful login clears its username + address count). */
export async function resetBucket(db: Db, key: string): Promise<void> {
  await db.deleteFrom('rateLimitBuckets').where('key', '=', key).execute();
}

/** Drop buckets whose window ended long ago. */
export async function pruneBuckets(db: Db, olderThanSeconds = 86_400): Promise<void> {
  await db
    .deleteFrom('rateLimitBuckets')
    .where('windowStart', '<', sql<Date>`clock_timestamp() - make_interval(secs => ${olderThanSeconds})`)
    .execute();
}
