import { sql, type Db } from '@lampstand/db';
import { renewTokenSchema, type GiftRenewalsOut } from '../../schemas/gift-renewals.js';
import { dateIn } from './gifts.js';
import { nextChargeDate } from './dates.js';
import { lockEnrollmentsFirst } from '../background/lock-first.js';

/**
 * Recurring givers brought back after a move (their rows come from a recurring-gift import,
 * imports/recurring.ts). The personal link prefills the giving page; the schedule the donor makes
 * through it is linked, and once its card is saved (the real schedule, not a click) the giver is
 * re-enrolled and leaves the journey that asks them back.
 */

export const RENEWAL_JOURNEY_NAME = 'Bring recurring givers back';

/** The link's path on the giving page. */
export const renewPath = (handle: string, token: string) => `/c/${handle}/give?renew=${token}`;

/** The first date on the gift's own cadence that is today or later (its old date may have passed). */
export function renewStartDate(frequency: Parameters<typeof nextChargeDate>[0], startDate: string, today: string) {
  let d = startDate;
  for (let i = 0; d < today && i < 1000; i++) d = nextChargeDate(frequency, d, startDate);
  return d < today ? today : d;
}

/** A giver's open renewal by its link's token (not yet re-enrolled), for the giving page and prepare. */
export async function openRenewal(db: Db, tenantId: number, token: string | null | undefined, now = new Date()) {
  if (!token || !renewTokenSchema.safeParse(token).success) return null;
  const r = await db
    .selectFrom('giftRenewals as r')
    .leftJoin('churchSettings as s', 's.userId', 'r.userId')
    .select(['r.id', 'r.frequency', 'r.lines', 'r.startDate', 'r.donorName', 'r.donorEmail', 's.timeZone'])
    .where('r.userId', '=', tenantId)
    .where('r.token', '=', token)
    .where('r.renewedAt', 'is', null)
    .executeTakeFirst();
  if (!r) return null;
  return { ...r, startDate: renewStartDate(r.frequency, r.startDate, dateIn(now, r.timeZone)) };
}

/** The schedule prepared through a giver's link is theirs (re-enrolled once its card is saved). */
export async function linkRenewal(db: Db, tenantId: number, input: { renewalId: number; scheduleId: number }) {
  await db
    .updateTable('giftRenewals')
    .set({ scheduleId: input.scheduleId })
    .where('id', '=', input.renewalId)
    .where('userId', '=', tenantId)
    .where('renewedAt', 'is', null)
    .execute();
}

/**
 * A schedule's card is saved (in the Stripe event's transaction): a giver whose link made it is
 * re-enrolled, and their place in the journey that asks them back is looked at now (its goal is
 * reached, so no further email or text goes).
 */
export async function markRenewed(trx: Db, input: { tenantId: number; scheduleId: number; contactId: number | null }) {
  const now = new Date();
  const done = await trx
    .updateTable('giftRenewals')
    .set((eb) => ({ renewedAt: now, contactId: eb.fn.coalesce('contactId', eb.val(input.contactId)) }))
    .where('userId', '=', input.tenantId)
    .where('scheduleId', '=', input.scheduleId)
    .where('renewedAt', 'is', null)
    .returning('contactId')
    .execute();
  const contacts = done.flatMap((r) => (r.contactId ? [r.contactId] : []));
  if (!contacts.length) return;
  // Locked in id order first, as the journey runner takes them: a visit in flight is waited for.
  await lockEnrollmentsFirst(trx, input.tenantId, { contactIds: contacts });
  await sql`
    update journey_enrollments e set next_run_at = ${now}
    from journey_versions v
    where v.journey_id = e.journey_id and v.version = e.version and v.definition->'goal'->>'kind' = 'renewed_giving'
      and e.user_id = ${input.tenantId} and e.status = 'active' and e.contact_id = any(${contacts}::int[])
      and e.next_run_at > ${now}`.execute(trx);
}

/**
 * The journey's goal: the person has set a recurring gift up again through their link, and none of
 * their old gifts is left to set up (a second gift's link goes in the next message).
 */
export async function hasRenewed(trx: Db, contactId: number): Promise<boolean> {
  const r = await trx
    .selectFrom('giftRenewals')
    .select([
      sql<number>`count(*) filter (where renewed_at is not null)`.as('renewed'),
      sql<number>`count(*) filter (where renewed_at is null)`.as('open'),
    ])
    .where('contactId', '=', contactId)
    .executeTakeFirstOrThrow();
  return Number(r.renewed) > 0 && Number(r.open) === 0;
}

/** The personal link of a person's first gift still to set up, for the journey's {{giveLink}}. */
export async function giveLinkOf(db: Db, contactId: number, publicUrl: string): Promise<string> {
  const r = await db
    .selectFrom('giftRenewals as r')
    .innerJoin('churchProfiles as p', 'p.userId', 'r.userId')
    .select(['r.token', 'p.handle'])
    .where('r.contactId', '=', contactId)
    .where('r.renewedAt', 'is', null)
    .orderBy('r.id')
    .executeTakeFirst();
  if (r) return `${publicUrl}${renewPath(r.handle, r.token)}`;
  const c = await db
    .selectFrom('contacts as c')
    .innerJoin('churchProfiles as p', 'p.userId', 'c.userId')
    .select('p.handle')
    .where('c.id', '=', contactId)
    .executeTakeFirst();
  return c ? `${publicUrl}/c/${c.handle}/give` : publicUrl;
}

/** What a recurring gift comes to per month, in cents. */
export function monthlyCents(frequency: string, cents: number): number {
  const perYear: Record<string, number> = {
    weekly: 52,
    every_two_weeks: 26,
    monthly: 12,
    first_and_fifteenth: 24,
    yearly: 1,
  };
  return Math.round((cents * (perYear[frequency] ?? 0)) / 12);
}

/** Staff: every recurring giver of the church's imports, newest import first, with the totals. */
export async function listRenewals(db: Db, tenantId: number, publicUrl: string): Promise<GiftRenewalsOut> {
  const rows = await db
    .selectFrom('giftRenewals as r')
    .leftJoin('giftSchedules as gs', 'gs.id', 'r.scheduleId')
    .selectAll('r')
    .select(['gs.amountCents as newAmountCents', 'gs.frequency as newFrequency'])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('deliveries as d')
            .innerJoin('journeys as j', 'j.id', 'd.journeyId')
            .select('d.id')
            .whereRef('d.contactId', '=', 'r.contactId')
            .where('d.kind', '=', 'journey')
            .where('d.status', 'in', ['sent', 'delivered'])
            .where('j.name', '=', RENEWAL_JOURNEY_NAME),
        )
        .as('linkSent'),
    )
    .where('r.userId', '=', tenantId)
    .orderBy('r.renewedAt', (ob) => ob.asc().nullsFirst())
    .orderBy('r.donorName')
    .orderBy('r.id')
    .limit(10_000)
    .execute();
  const profile = await db
    .selectFrom('churchProfiles')
    .select('handle')
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  const journey = await db
    .selectFrom('journeys')
    .select(['id', 'name', 'status'])
    .where('userId', '=', tenantId)
    .where('name', '=', RENEWAL_JOURNEY_NAME)
    .where('status', '!=', 'archived')
    .orderBy('id')
    .executeTakeFirst();
  const renewals = rows.map((r) => ({
    id: r.id,
    contactId: r.contactId,
    donorName: r.donorName,
    donorEmail: r.donorEmail,
    source: r.source,
    frequency: r.frequency,
    lines: r.lines,
    amountCents: r.amountCents,
    monthlyCents: r.monthlyCents,
    lastChargeDate: r.lastChargeDate,
    startDate: r.startDate,
    status: r.renewedAt ? ('renewed' as const) : r.linkSent ? ('link_sent' as const) : ('not_yet' as const),
    link: profile ? `${publicUrl}${renewPath(profile.handle, r.token)}` : null,
    scheduleId: r.scheduleId,
    renewedAt: r.renewedAt?.toISOString() ?? null,
  }));
  const renewed = rows.filter((r) => r.renewedAt);
  return {
    totals: {
      givers: renewals.length,
      renewed: renewed.length,
      linkSent: renewals.filter((r) => r.status === 'link_sent').length,
      monthlyCentsBefore: renewals.reduce((s, r) => s + r.monthlyCents, 0),
      // What they set up again (it may differ from what they gave before).
      monthlyCentsRecovered: renewed.reduce(
        (s, r) => s + (r.newFrequency ? monthlyCents(r.newFrequency, r.newAmountCents ?? 0) : r.monthlyCents),
        0,
      ),
    },
    journey: journey ?? null,
    renewals,
  };
}
