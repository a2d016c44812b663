import type { BlockoutRecurrence } from '@lampstand/db';

// Auto-scheduling: who serves where, proposed from the rules, before anything is
// sent. Pure functions over plain data, so the rules are tested alone (and by a property test)
// and the benchmark measures the algorithm, not the database.

/** A blockout: one day or a range, or a pattern that recurs inside the range. */
export interface Blockout {
  memberId: number;
  startsOn: string;
  endsOn: string;
  /**
   * null: every day from startsOn to endsOn. 'monthly': the nth weekday of each month (nth -1 =
   * the last), e.g. every 2nd Sunday. 'weekly': that weekday every `interval` weeks from startsOn.
   */
  recurrence: BlockoutRecurrence | null;
  reason?: string | null;
}

export type { BlockoutRecurrence };

export interface SchedulePlan {
  id: number;
  /** YYYY-MM-DD */
  date: string;
  title: string;
}

export interface ScheduleMember {
  id: number;
  name: string;
  isActive: boolean;
  positionIds: number[];
  /** Most times a month; null for no limit. */
  maxPerMonth: number | null;
  /** Serve on the same plans as household members who serve. */
  withHousehold: boolean;
  /** Other members in the same household (family links between their contacts). */
  householdIds: number[];
}

/** An assignment that exists already (any status but declined counts as serving). */
export interface ExistingAssignment {
  planId: number;
  date: string;
  memberId: number;
  positionId: number | null;
}

export interface ProposedAssignment {
  planId: number;
  positionId: number;
  memberId: number;
}

export interface UnfilledSlot {
  planId: number;
  positionId: number;
  reason: string;
}

const DAY = 86_400_000;
const dayOf = (iso: string) => new Date(`${iso}T00:00:00Z`);

/** True when the blockout covers `date` (YYYY-MM-DD). */
export function blocksDate(b: Blockout, date: string): boolean {
  if (date < b.startsOn || date > b.endsOn) return false;
  const r = b.recurrence;
  if (!r) return true;
  const d = dayOf(date);
  if (d.getUTCDay() !== r.weekday) return false;
  if (r.every === 'weeks') {
    // The first matching weekday on or after startsOn is week 0.
    const first = dayOf(b.startsOn);
    while (first.getUTCDay() !== r.weekday) first.setUTCDate(first.getUTCDate() + 1);
    const since = Math.round((d.getTime() - first.getTime()) / (7 * DAY));
    return since >= 0 && since % Math.max(1, r.interval) === 0;
  }
  const nth = Math.floor((d.getUTCDate() - 1) / 7) + 1;
  if (r.nth === -1)
    return d.getUTCDate() + 7 > new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  return nth === r.nth;
}

/** 'Maria is away 12–19 May' style words for a blockout on a date. */
export function awayWords(name: string, b: Blockout): string {
  if (b.recurrence) return `${name} is away that day (a recurring blockout)`;
  const [from, to] = [dayOf(b.startsOn), dayOf(b.endsOn)];
  const day = (d: Date) => d.getUTCDate();
  const month = (d: Date) => d.toLocaleDateString('en-GB', { month: 'short', timeZone: 'UTC' });
  if (b.startsOn === b.endsOn) return `${name} is away ${day(from)} ${month(from)}`;
  if (b.startsOn.slice(0, 7) === b.endsOn.slice(0, 7)) return `${name} is away ${day(from)}–${day(to)} ${month(to)}`;
  return `${name} is away ${day(from)} ${month(from)}–${day(to)} ${month(to)}`;
}

/** Why nobody qualified is free: 'No one free: 2 blocked out, 1 at their monthly limit'. */
export function noOneFreeWords(reasons: { away: number; busy: number; limit: number }): string {
  const why = [
    reasons.away ? `${reasons.away} blocked out` : '',
    reasons.busy ? `${reasons.busy} already serving that day` : '',
    reasons.limit ? `${reasons.limit} at their monthly limit` : '',
  ].filter(Boolean);
  return `No one free: ${why.join(', ')}`;
}

/**
 * Why one slot of a plan is empty, by the same rules as the proposal (the matrix's 'not filled'
 * cells): nobody qualified, nobody free (and why each is not), or people free whom nobody has
 * asked yet. `existing` is what is scheduled (declined left out), the plan's own included.
 */
export function unfilledReason(input: {
  date: string;
  positionId: number;
  positionName: string;
  members: ScheduleMember[];
  blockouts: Blockout[];
  existing: ExistingAssignment[];
}): string {
  const qualified = input.members.filter((m) => m.isActive && m.positionIds.includes(input.positionId));
  if (qualified.length === 0) return `Nobody active is qualified for ${input.positionName}`;
  const reasons = { away: 0, busy: 0, limit: 0 };
  let free = 0;
  for (const m of qualified) {
    const own = input.existing.filter((a) => a.memberId === m.id);
    if (input.blockouts.some((b) => b.memberId === m.id && blocksDate(b, input.date))) reasons.away++;
    else if (own.some((a) => a.date === input.date)) reasons.busy++;
    else if (
      m.maxPerMonth !== null &&
      own.filter((a) => monthOf(a.date) === monthOf(input.date)).length >= m.maxPerMonth
    )
      reasons.limit++;
    else free++;
  }
  if (free === 0) return noOneFreeWords(reasons);
  return `Nobody asked yet: ${free} free to serve`;
}

const monthOf = (date: string) => date.slice(0, 7);
const quarterOf = (date: string) => `${date.slice(0, 4)}Q${Math.floor((Number(date.slice(5, 7)) - 1) / 3)}`;

/**
 * Proposes who serves where on each plan, one person per (plan, position) slot (a position listed
 * twice needs two people). The rules, in order:
 * - only active members qualified for the position;
 * - nobody blocked out that day;
 * - nobody twice on one date (any plan of that day, this proposal or already scheduled);
 * - each member's most times a month, counting what is already scheduled;
 * - households together: a member who asked to serve with their household goes first on a plan
 *   where a household member already serves;
 * - fair rotation: least recently scheduled first (before the plan's date), ties by fewest this
 *   quarter, then by id (the same input always gives the same proposal);
 * - a slot nobody can fill is listed with why.
 * Plans are filled in date order, so rotation carries from one week to the next.
 */
export function proposeSchedule(input: {
  plans: SchedulePlan[];
  positionIds: number[];
  members: ScheduleMember[];
  blockouts: Blockout[];
  existing: ExistingAssignment[];
  positionNames?: Map<number, string>;
}): { assignments: ProposedAssignment[]; unfilled: UnfilledSlot[] } {
  const plans = [...input.plans].sort((a, b) => (a.date === b.date ? a.id - b.id : a.date < b.date ? -1 : 1));
  const byMemberBlockouts = new Map<number, Blockout[]>();
  for (const b of input.blockouts) {
    const list = byMemberBlockouts.get(b.memberId) ?? [];
    list.push(b);
    byMemberBlockouts.set(b.memberId, list);
  }
  // What each member serves: dates (for overlap and recency), per month and per quarter.
  const dates = new Map<number, Set<string>>();
  const perMonth = new Map<string, number>();
  const perQuarter = new Map<string, number>();
  const onPlan = new Map<number, Set<number>>();
  const serve = (memberId: number, planId: number, date: string) => {
    if (!dates.has(memberId)) dates.set(memberId, new Set());
    dates.get(memberId)!.add(date);
    const m = `${memberId}:${monthOf(date)}`;
    perMonth.set(m, (perMonth.get(m) ?? 0) + 1);
    const q = `${memberId}:${quarterOf(date)}`;
    perQuarter.set(q, (perQuarter.get(q) ?? 0) + 1);
    if (!onPlan.has(planId)) onPlan.set(planId, new Set());
    onPlan.get(planId)!.add(memberId);
  };
  for (const a of input.existing) serve(a.memberId, a.planId, a.date);
  /** The latest date before `date` the member serves, '' when never. */
  const lastBefore = (memberId: number, date: string) => {
    let last = '';
    for (const d of dates.get(memberId) ?? []) if (d < date && d > last) last = d;
    return last;
  };

  const assignments: ProposedAssignment[] = [];
  const unfilled: UnfilledSlot[] = [];
  const posName = (id: number) => input.positionNames?.get(id) ?? 'this position';
  for (const plan of plans) {
    for (const positionId of input.positionIds) {
      const qualified = input.members.filter((m) => m.isActive && m.positionIds.includes(positionId));
      if (qualified.length === 0) {
        unfilled.push({ planId: plan.id, positionId, reason: `Nobody active is qualified for ${posName(positionId)}` });
        continue;
      }
      const reasons = { away: 0, busy: 0, limit: 0 };
      const free = qualified.filter((m) => {
        if ((byMemberBlockouts.get(m.id) ?? []).some((b) => blocksDate(b, plan.date))) return (reasons.away++, false);
        if (dates.get(m.id)?.has(plan.date)) return (reasons.busy++, false);
        if (m.maxPerMonth !== null && (perMonth.get(`${m.id}:${monthOf(plan.date)}`) ?? 0) >= m.maxPerMonth)
          return (reasons.limit++, false);
        return true;
      });
      if (free.length === 0) {
        unfilled.push({ planId: plan.id, positionId, reason: noOneFreeWords(reasons) });
        continue;
      }
      const here = onPlan.get(plan.id) ?? new Set<number>();
      const together = (m: ScheduleMember) => (m.withHousehold && m.householdIds.some((h) => here.has(h)) ? 0 : 1);
      // Each candidate's sort key, computed once: together first, least recent, fewest this quarter, id.
      const keyed = free.map((m) => ({
        m,
        together: together(m),
        last: lastBefore(m.id, plan.date),
        quarter: perQuarter.get(`${m.id}:${quarterOf(plan.date)}`) ?? 0,
      }));
      keyed.sort(
        (a, b) =>
          a.together - b.together ||
          (a.last === b.last ? 0 : a.last < b.last ? -1 : 1) ||
          a.quarter - b.quarter ||
          a.m.id - b.m.id,
      );
      const chosen = keyed[0]!.m;
      assignments.push({ planId: plan.id, positionId, memberId: chosen.id });
      serve(chosen.id, plan.id, plan.date);
    }
  }
  return { assignments, unfilled };
}
