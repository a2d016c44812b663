import { sql, type Db } from '@lampstand/db';
import { GIFT_SOURCES, type GivingOverview } from '../../schemas/giving.js';
import { addContactsToList } from '../contacts/lists.js';
import { findJourney } from '../journeys/definitions.js';
import { enrollInJourney } from '../journeys/enroll.js';
import { churchToday } from './giving-church.js';

/** Income per month of one recurring gift, by its frequency (a weekly gift comes 52 times a year). */
const TIMES_A_MONTH = sql.raw(`case s.frequency
  when 'weekly' then 52.0 / 12 when 'every_two_weeks' then 26.0 / 12 when 'monthly' then 1
  when 'first_and_fifteenth' then 2 when 'yearly' then 1.0 / 12 else 0 end`);

/** Lapsed donors listed on the screen; the actions take all of them. */
const LAPSED_SHOWN = 500;

/**
 * The church's completed gifts as the overview counts them: each on its date in the church's time
 * zone, its funds' lines (the fee a donor covered is not income to a fund), and its donor: the
 * contact, or else the email. Refunded gifts are out; a disputed gift is off the totals until won
 * (it is 'disputed', not 'completed', meanwhile). A gift refunded in part counts less its refund:
 * `kept` is the share of its amount not paid back, taken off each of its lines alike.
 */
function completedGifts(tenantId: number) {
  return sql`
    select g.id, g.contact_id, lower(g.donor_email) as email, g.donor_name, g.schedule_id,
      coalesce(g.source_kind, 'direct') as source,
      (coalesce(g.completed_at, g.created_at) at time zone coalesce(
        (select time_zone from church_settings where user_id = ${tenantId}), 'UTC'))::date as d,
      (g.amount_cents - g.refunded_cents)::numeric / g.amount_cents as kept,
      round((select coalesce(sum(l.amount_cents), 0) from gift_lines l where l.gift_id = g.id)
        * (g.amount_cents - g.refunded_cents)::numeric / g.amount_cents)::bigint as cents
    from gifts g
    where g.user_id = ${tenantId} and g.status = 'completed'`;
}

interface DonorRow {
  contactId: number | null;
  name: string;
  first: string;
  last: string;
  totalCents: string | number;
}

/** Donors (a contact, or an email when there is none) with their first and last gift and their year's total. */
async function donors(db: Db, tenantId: number, today: string): Promise<DonorRow[]> {
  const { rows } = await sql<DonorRow>`
    with g as (${completedGifts(tenantId)}),
    d as (
      select coalesce('c' || g.contact_id, 'e' || g.email) as key, max(g.contact_id) as contact_id,
        min(g.d) as first, max(g.d) as last,
        coalesce(sum(g.cents) filter (where g.d > ${today}::date - 365), 0) as total_cents,
        (array_agg(coalesce(nullif(g.donor_name, ''), g.email) order by g.d desc))[1] as donor_name
      from g where g.contact_id is not null or g.email is not null
      group by 1
    )
    select d.contact_id, to_char(d.first, 'YYYY-MM-DD') as first, to_char(d.last, 'YYYY-MM-DD') as last, d.total_cents,
      coalesce(nullif(trim(concat_ws(' ', c.first_name, c.last_name)), ''), c.email, d.donor_name, 'Someone') as name
    from d left join contacts c on c.id = d.contact_id and c.user_id = ${tenantId}`.execute(db);
  return rows;
}

/** Gave in the last 12 months, nothing in the last 90 days; the most recent first. */
function lapsedOf(all: DonorRow[], today: string): DonorRow[] {
  const day = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
  const yearAgo = day(365);
  const quarterAgo = day(90);
  return all.filter((d) => d.last > yearAgo && d.last <= quarterAgo).sort((a, b) => (a.last < b.last ? 1 : -1));
}

/** Giving → Overview: the 12 months up to the church's today. */
export async function givingOverview(db: Db, tenantId: number, now = new Date()): Promise<GivingOverview> {
  const today = await churchToday(db, tenantId, now);
  const firstMonth = `${monthsBefore(today.slice(0, 7), 11)}-01`;
  const thisMonth = `${today.slice(0, 7)}-01`;
  const [byMonthFund, sources, recurring, all] = await Promise.all([
    sql<{ month: string; fundId: number; fundName: string; totalCents: string; recurringCents: string }>`
      with g as (${completedGifts(tenantId)})
      select to_char(g.d, 'YYYY-MM') as month, l.fund_id, f.name as fund_name,
        sum(round(l.amount_cents * g.kept))::bigint as total_cents,
        coalesce(sum(round(l.amount_cents * g.kept)) filter (where g.schedule_id is not null), 0)::bigint as recurring_cents
      from g join gift_lines l on l.gift_id = g.id join funds f on f.id = l.fund_id
      where g.d >= ${firstMonth}::date and g.d <= ${today}::date
      group by 1, 2, 3`.execute(db),
    sql<{ source: string; count: string; totalCents: string }>`
      with g as (${completedGifts(tenantId)})
      select g.source, count(*)::bigint as count, sum(g.cents)::bigint as total_cents
      from g where g.d >= ${firstMonth}::date and g.d <= ${today}::date
      group by 1`.execute(db),
    sql<{ count: string; monthlyCents: string | null }>`
      select count(*)::bigint as count,
        round(sum((select sum(l.amount_cents) from gift_schedule_lines l where l.schedule_id = s.id) * ${TIMES_A_MONTH}))::bigint
          as monthly_cents
      from gift_schedules s where s.user_id = ${tenantId} and s.status = 'active'`.execute(db),
    donors(db, tenantId, today),
  ]);

  const months = Array.from({ length: 12 }, (_, i) => monthsBefore(today.slice(0, 7), 11 - i)).map((month) => ({
    month,
    totalCents: 0,
    recurringCents: 0,
  }));
  const monthIndex = new Map(months.map((m, i) => [m.month, i]));
  const funds = new Map<number, { fundId: number; fundName: string; totalCents: number }>();
  for (const r of byMonthFund.rows) {
    const m = months[monthIndex.get(r.month) ?? -1];
    if (m) {
      m.totalCents += Number(r.totalCents);
      m.recurringCents += Number(r.recurringCents);
    }
    const f = funds.get(r.fundId) ?? { fundId: r.fundId, fundName: r.fundName, totalCents: 0 };
    f.totalCents += Number(r.totalCents);
    funds.set(r.fundId, f);
  }
  const lapsed = lapsedOf(all, today);
  const bySource = new Map(sources.rows.map((r) => [r.source, r]));
  return {
    today,
    months,
    funds: [...funds.values()].sort((a, b) => b.totalCents - a.totalCents || a.fundName.localeCompare(b.fundName)),
    totalCents: months.reduce((s, m) => s + m.totalCents, 0),
    recurring: {
      count: Number(recurring.rows[0]?.count ?? 0),
      monthlyCents: Number(recurring.rows[0]?.monthlyCents ?? 0),
    },
    newDonorsThisMonth: all.filter((d) => d.first >= thisMonth).length,
    lapsed: {
      count: lapsed.length,
      donors: lapsed.slice(0, LAPSED_SHOWN).map((d) => ({
        contactId: d.contactId,
        name: d.name,
        lastGiftOn: d.last,
        totalCents: Number(d.totalCents),
      })),
    },
    sources: GIFT_SOURCES.map((source) => ({
      source,
      count: Number(bySource.get(source)?.count ?? 0),
      totalCents: Number(bySource.get(source)?.totalCents ?? 0),
    })),
  };
}

/** 'YYYY-MM' n months before `month`. */
function monthsBefore(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) - n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** The lapsed donors who are contacts (a donor known only by an email cannot be added). */
async function lapsedContactIds(db: Db, tenantId: number, now: Date): Promise<number[]> {
  const today = await churchToday(db, tenantId, now);
  return lapsedOf(await donors(db, tenantId, today), today)
    .map((d) => d.contactId)
    .filter((id): id is number => id !== null);
}

/** 'Add to a list': every lapsed donor who is a contact, on the chosen list (each a `list.member_added`). */
export async function lapsedDonorsToList(db: Db, tenantId: number, input: { listId: number }, now = new Date()) {
  const contactIds = await lapsedContactIds(db, tenantId, now);
  const added = await addContactsToList(db, tenantId, { listId: input.listId, contactIds });
  return { donors: contactIds.length, added };
}

/** 'Send to a journey': every lapsed donor who is a contact, enrolled now as the journey's entry rule allows. */
export async function lapsedDonorsToJourney(db: Db, tenantId: number, input: { journeyId: number }, now = new Date()) {
  const contactIds = await lapsedContactIds(db, tenantId, now);
  if (contactIds.length === 0) {
    await findJourney(db, tenantId, input.journeyId); // another church's journey is still a 404
    return { enrolled: 0, skipped: 0 };
  }
  return enrollInJourney(db, tenantId, { id: input.journeyId, contactIds }, now);
}
