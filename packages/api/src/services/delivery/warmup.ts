import { sql, type Db } from '@lampstand/db';
import type { RawBuilder } from 'kysely';
import type { EmailWarmup } from '../../schemas/account.js';

/**
 * Email warm-up (the platform's `EMAIL_WARMUP`, off by default): a new church's first
 * week of email is limited to a number a day that doubles each day, so that a new sender's
 * reputation is built slowly. The days are counted from the church's sign-up (`users.created_at`),
 * 24 hours each: day 1 allows 50 emails, day 2 100, then 200, 400, 800, 1,600 and 3,200 on day 7;
 * from day 8 there is no warm-up limit. Counted from the sign-up rather than from the first send, so
 * that turning the setting on never holds back a church that has been sending for weeks.
 *
 * The delivery engine enforces it when it claims email deliveries (every kind: campaigns,
 * journeys, requests, statements, notices): emails past the day's number stay pending until the
 * next day starts, and go then. It does not refuse a send; the daily recipient limit (429) is a
 * separate rule.
 */
export const WARMUP_DAYS = 7;
export const WARMUP_FIRST_DAY = 50;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The warm-up day (1–7) of a church created at `createdAt`, at `now`; null once the week is over. */
export function warmupDay(createdAt: Date, now: Date): number | null {
  const day = Math.floor((now.getTime() - createdAt.getTime()) / DAY_MS) + 1;
  return day > WARMUP_DAYS ? null : Math.max(1, day);
}

/** Emails allowed on warm-up day `day`: 50, 100, 200, … */
export const warmupLimit = (day: number) => WARMUP_FIRST_DAY * 2 ** (day - 1);

/** When warm-up day `day` ends (and the next one's allowance starts). */
const dayEnd = (createdAt: Date, day: number) => new Date(createdAt.getTime() + day * DAY_MS);

/** Sign-up times of churches, per database: it never changes, and most runs are past the week. */
const signUps = new WeakMap<Db, Map<number, Date>>();

async function signUpOf(db: Db, tenantId: number): Promise<Date> {
  const known = signUps.get(db) ?? new Map<number, Date>();
  signUps.set(db, known);
  let at = known.get(tenantId);
  if (!at) {
    const row = await db.selectFrom('users').select('createdAt').where('id', '=', tenantId).executeTakeFirstOrThrow();
    at = row.createdAt;
    known.set(tenantId, at);
  }
  return at;
}

/** What the sending page shows: today's warm-up limit and use; null when none applies. */
export async function getEmailWarmup(db: Db, tenantId: number, now = new Date()): Promise<EmailWarmup | null> {
  const createdAt = await signUpOf(db, tenantId);
  const day = warmupDay(createdAt, now);
  if (day === null) return null;
  const row = await db
    .selectFrom('emailWarmupUsage')
    .select('sent')
    .where('userId', '=', tenantId)
    .where('day', '=', day)
    .executeTakeFirst();
  const limit = warmupLimit(day);
  const sent = Math.min(limit, row?.sent ?? 0);
  return {
    day,
    days: WARMUP_DAYS,
    limit,
    sentToday: sent,
    remainingToday: limit - sent,
    nextDayAt: dayEnd(createdAt, day).toISOString(),
    nextDayLimit: day < WARMUP_DAYS ? warmupLimit(day + 1) : null,
  };
}

/**
 * The engine's claim of a church's email deliveries under the warm-up: at most what is left of
 * today's number is claimed (by `claim`, in this transaction, under the lock of the day's row), and
 * counted. When the day's number is used up, the group's other pending deliveries wait for the next
 * day (`next_attempt_at`), so the engine comes back then and no sweep wakes them before.
 * `groupWhere` selects the group's deliveries (unqualified columns of `deliveries`).
 */
export async function claimWithinWarmup<T>(
  db: Db,
  o: {
    tenantId: number;
    now: Date;
    want: number;
    groupWhere: RawBuilder<boolean>;
    claim: (trx: Db, limit: number) => Promise<T[]>;
  },
): Promise<T[]> {
  const createdAt = await signUpOf(db, o.tenantId);
  const day = warmupDay(createdAt, o.now);
  if (day === null) return o.claim(db, o.want);
  return db.transaction().execute(async (trx) => {
    await sql`
      insert into email_warmup_usage (user_id, day) values (${o.tenantId}, ${day})
      on conflict (user_id, day) do nothing`.execute(trx);
    const { sent } = await trx
      .selectFrom('emailWarmupUsage')
      .select('sent')
      .where('userId', '=', o.tenantId)
      .where('day', '=', day)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const left = Math.max(0, warmupLimit(day) - sent);
    const rows = left > 0 ? await o.claim(trx, Math.min(o.want, left)) : [];
    if (rows.length > 0)
      await trx
        .updateTable('emailWarmupUsage')
        .set({ sent: sent + rows.length })
        .where('userId', '=', o.tenantId)
        .where('day', '=', day)
        .execute();
    if (rows.length >= left) {
      await sql`
        update deliveries set next_attempt_at = ${dayEnd(createdAt, day)}, updated_at = now()
        where channel = 'email' and ${o.groupWhere} and status = 'pending'
          and (next_attempt_at is null or next_attempt_at < ${dayEnd(createdAt, day)})`.execute(trx);
    }
    return rows;
  });
}
