import crypto from 'node:crypto';
import { sql, type Db } from '@lampstand/db';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import type { NewEvent } from '../../schemas/events.js';
import { recordEvents } from '../events/record.js';
import { blocksDate } from './auto-schedule.js';
import { atServiceTime, dayAndTime, leaderTarget, memberTargets, queueNotice } from './notices.js';
import { getPlannerSettings } from './planner-settings.js';
import { churchLocaleOf, effectiveCountry } from '../settings/church-settings.js';
import { churchLocale } from '../../shared/locale.js';

// Decline → find a substitute, and swaps: a slot is offered to the teammates who
// could take it (same position, active, not blocked out, not serving that day, within their
// monthly limit); each gets 'Can you cover Sound on Sunday 10:00?' with an Accept link. The first
// to accept gets the slot (the offer row is locked while it is taken, so two at once cannot both
// win), the others are told it is filled and the leader is told who covers. Nobody within the
// church's time (default 48 hours) → the leader is told.

type Deps = { db: Db; jobs: JobQueue };

/** An assignment with what an offer needs, locked for the rest of the transaction. */
export async function lockedAssignment(trx: Db, where: { token: string } | { id: number; tenantId: number }) {
  let q = trx
    .selectFrom('servicePlanAssignments as a')
    .innerJoin('teamMembers as m', 'm.id', 'a.teamMemberId')
    .innerJoin('servicePlans as p', 'p.id', 'a.servicePlanId')
    .leftJoin('teamPositions as pos', 'pos.id', 'a.positionId')
    .select(['a.id', 'a.userId', 'a.status', 'a.positionId', 'a.teamMemberId', 'a.servicePlanId as planId'])
    .select('a.serviceTime')
    .select(['m.name', 'm.email', 'm.contactId', 'pos.name as positionName'])
    .select(['p.title as planTitle', 'p.date', 'p.startTime', 'p.serviceTimes']);
  q =
    'token' in where
      ? q.where('a.token', '=', where.token)
      : q.where('a.id', '=', where.id).where('a.userId', '=', where.tenantId);
  return q.forUpdate('a').executeTakeFirst();
}
type Slot = NonNullable<Awaited<ReturnType<typeof lockedAssignment>>>;

export const slotRef = (a: Slot) => ({ plan: { id: a.planId, name: a.planTitle }, position: a.positionName ?? '' });
export const memberPerson = (p: { name: string; email: string | null }) => ({ name: p.name, email: p.email });

/**
 * Who could cover the slot: active members qualified for its position, other than its person, not
 * in the plan already, not serving that day, within their monthly limit, not blocked out.
 */
export async function freeTeammates(trx: Db, tenantId: number, a: Omit<Slot, 'status'>) {
  if (a.positionId === null) return [];
  const month = a.date.slice(0, 7);
  const rows = await trx
    .selectFrom('teamMembers as m')
    .innerJoin('teamMemberPositions as mp', 'mp.teamMemberId', 'm.id')
    .select(['m.id', 'm.name', 'm.email', 'm.contactId'])
    .where('m.userId', '=', tenantId)
    .where('m.isActive', '=', true)
    .where('mp.positionId', '=', a.positionId)
    .where('m.id', '<>', a.teamMemberId)
    .where(
      sql<boolean>`not exists (select 1 from service_plan_assignments o join service_plans op on op.id = o.service_plan_id
        where o.team_member_id = m.id and (o.service_plan_id = ${a.planId} or (op.date = ${a.date} and o.status <> 'declined')))`,
    )
    .where(
      sql<boolean>`(m.max_per_month is null or (select count(*) from service_plan_assignments o
        join service_plans op on op.id = o.service_plan_id
        where o.team_member_id = m.id and o.status <> 'declined' and to_char(op.date, 'YYYY-MM') = ${month}) < m.max_per_month)`,
    )
    .orderBy('m.name')
    .orderBy('m.id')
    .execute();
  if (rows.length === 0) return rows;
  const blockouts = await trx
    .selectFrom('teamMemberBlockouts')
    .select(['teamMemberId as memberId', 'startsOn', 'endsOn', 'recurrence'])
    .where('userId', '=', tenantId)
    .where(
      'teamMemberId',
      'in',
      rows.map((r) => r.id),
    )
    .where('startsOn', '<=', a.date)
    .where('endsOn', '>=', a.date)
    .execute();
  return rows.filter((r) => !blockouts.some((b) => b.memberId === r.id && blocksDate(b, a.date)));
}

export interface OfferResult {
  offerId: number | null;
  offeredTo: number;
  message: string;
}

/**
 * Inside the caller's transaction, with the slot locked: the offer, a candidate row (with its own
 * Accept link) and 'Can you cover …?' for each free teammate, the events; nobody free → the leader
 * is told at once and the offer is closed as unfilled.
 */
async function openOffer(trx: Db, a: Slot, kind: 'substitute' | 'swap', now: Date): Promise<OfferResult> {
  const tenantId = a.userId;
  const open = await trx
    .selectFrom('substituteOffers')
    .select('id')
    .where('assignmentId', '=', a.id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  if (open) throw conflict('Your teammates have already been asked', 'assignmentId');
  const settings = await getPlannerSettings(trx, tenantId);
  const candidates = await freeTeammates(trx, tenantId, a);
  const offer = await trx
    .insertInto('substituteOffers')
    .values({
      userId: tenantId,
      assignmentId: a.id,
      servicePlanId: a.planId,
      kind,
      status: candidates.length ? 'open' : 'unfilled',
      expiresAt: new Date(now.getTime() + settings.substituteHours * 3_600_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const events: NewEvent[] = [];
  const ref = { ...slotRef(a), offerId: offer.id };
  for (const c of candidates) {
    const cand = await trx
      .insertInto('substituteOfferCandidates')
      .values({
        userId: tenantId,
        offerId: offer.id,
        teamMemberId: c.id,
        token: crypto.randomBytes(32).toString('base64url'),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await queueNotice(trx, tenantId, {
      planId: a.planId,
      assignmentId: a.id,
      offerId: offer.id,
      notice: `offer:${cand.id}`,
      targets: await memberTargets(trx, tenantId, c.id),
    });
    events.push({
      type: 'plan.substitute_offered',
      contactId: c.contactId,
      payload: { person: memberPerson(c), ...ref, assignmentId: a.id },
    });
  }
  if (!candidates.length)
    await queueNotice(trx, tenantId, {
      planId: a.planId,
      assignmentId: a.id,
      offerId: offer.id,
      notice: 'leader-unfilled',
      targets: [await leaderTarget(trx, tenantId)],
    });
  events.unshift({
    type: kind === 'swap' ? 'plan.swap_requested' : 'plan.substitute_requested',
    contactId: a.contactId,
    payload: { person: memberPerson(a), ...ref, assignmentId: a.id, offeredTo: candidates.length },
  });
  if (!candidates.length)
    events.push({
      type: 'plan.substitute_unfilled',
      contactId: a.contactId,
      payload: { person: memberPerson(a), ...ref, assignmentId: a.id },
    });
  await recordEvents(trx, tenantId, events);
  const n = candidates.length;
  const { locale } = await churchLocaleOf(trx, tenantId);
  return {
    offerId: offer.id,
    offeredTo: n,
    message: n
      ? `We asked ${n} ${n === 1 ? 'teammate' : 'teammates'} who can serve as ${a.positionName} on ${dayAndTime(atServiceTime(a, a.serviceTime), { locale })}. The first to accept gets it.`
      : 'No teammate is free to cover this date. We let your leader know.',
  };
}

/** Find and check the slot (locked), open its offer, then start sending. */
async function offerSlot(
  deps: Deps,
  kind: 'substitute' | 'swap',
  now: Date,
  find: (trx: Db) => Promise<Slot>,
): Promise<OfferResult> {
  const { planId, ...result } = await deps.db.transaction().execute(async (trx) => {
    const a = await find(trx);
    return { planId: a.planId, ...(await openOffer(trx, a, kind, now)) };
  });
  await deps.jobs.send('planner-notice-deliver', { planId });
  return result;
}

const NO_POSITION = 'This slot has no position, so nobody can be asked to cover it';

/**
 * 'Ask my teammates to cover' after declining from a request's link (the token is the key): the
 * slot must be declined, have a position, and not be offered already.
 */
export function requestSubstitute(deps: Deps, input: { token: string; now?: Date }): Promise<OfferResult> {
  return offerSlot(deps, 'substitute', input.now ?? new Date(), async (trx) => {
    const a = await lockedAssignment(trx, { token: input.token });
    if (!a) throw notFound('This link is not valid');
    if (a.status !== 'declined') throw badRequest('Decline first, then ask your teammates to cover', 'token');
    if (a.positionId === null) throw badRequest(NO_POSITION, 'token');
    return a;
  });
}

/**
 * A swap from the members' portal: someone scheduled on a plan offers their slot to the teammates
 * who could take it; they stay scheduled until one accepts (then their slot is marked declined).
 * `memberIds` are the team members of the signed-in person: another's slot is not found.
 */
export function offerSwap(
  deps: Deps,
  tenantId: number,
  input: { assignmentId: number; memberIds: number[]; now?: Date },
): Promise<OfferResult> {
  return offerSlot(deps, 'swap', input.now ?? new Date(), async (trx) => {
    const a = await lockedAssignment(trx, { id: input.assignmentId, tenantId });
    if (!a || !input.memberIds.includes(a.teamMemberId)) throw notFound('Assignment not found');
    if (a.status === 'declined') throw badRequest('You have declined this date already', 'assignmentId');
    if (a.positionId === null) throw badRequest(NO_POSITION, 'assignmentId');
    return a;
  });
}

/** The slot a cover link offers, and where the offer stands. Reading it never accepts. */
export async function getCoverOffer(db: Db, input: { token: string }) {
  const row = await db
    .selectFrom('substituteOfferCandidates as c')
    .innerJoin('substituteOffers as o', 'o.id', 'c.offerId')
    .innerJoin('servicePlanAssignments as a', 'a.id', 'o.assignmentId')
    .innerJoin('servicePlans as p', 'p.id', 'a.servicePlanId')
    .innerJoin('teamMembers as m', 'm.id', 'c.teamMemberId')
    .innerJoin('users as u', 'u.id', 'c.userId')
    .leftJoin('churchSettings as s', 's.userId', 'c.userId')
    .leftJoin('teamPositions as pos', 'pos.id', 'a.positionId')
    .leftJoin('servicePlanAssignments as f', 'f.id', 'o.filledAssignmentId')
    .select(['o.status', 'o.expiresAt', 'm.name as memberName', 'u.churchName', 'pos.name as positionName'])
    .select(['p.title as planTitle', 'p.date', 'p.startTime', 'p.serviceTimes', 'p.location', 'a.serviceTime'])
    .select(sql<boolean>`f.team_member_id is not distinct from c.team_member_id`.as('mine'))
    .select(['s.country', 's.timeZone as churchTimeZone'])
    .where('c.token', '=', input.token)
    .executeTakeFirst();
  if (!row) throw notFound('This link is not valid');
  const { country, churchTimeZone, ...rest } = row;
  const slot = atServiceTime(rest, rest.serviceTime);
  const locale = churchLocale(effectiveCountry({ country, timeZone: churchTimeZone }));
  return {
    ...slot,
    locale,
    question: `Can you cover ${row.positionName ?? 'this slot'} on ${dayAndTime(slot, { locale })}?`,
  };
}

export type CoverOutcome = 'accepted' | 'filled' | 'closed' | 'unavailable';

/**
 * A teammate's Accept (a POST from the cover page). The offer row is locked first, so of two
 * teammates accepting at the same moment one gets the slot and the other finds it filled. The
 * winner is scheduled (accepted) in the same position; a swapped slot is marked declined; the
 * other teammates, the person who asked and the leader are told; the events are written last.
 */
export async function acceptCover(
  deps: Deps,
  input: { token: string; now?: Date },
): Promise<{ outcome: CoverOutcome }> {
  const now = input.now ?? new Date();
  const result = await deps.db.transaction().execute(async (trx) => {
    const cand = await trx
      .selectFrom('substituteOfferCandidates')
      .select(['id', 'offerId', 'teamMemberId', 'userId'])
      .where('token', '=', input.token)
      .executeTakeFirst();
    if (!cand) throw notFound('This link is not valid');
    // The lock that makes the first Accept win: a second one waits here, then reads 'filled'.
    const offer = await trx
      .selectFrom('substituteOffers')
      .select(['id', 'status', 'kind', 'expiresAt', 'assignmentId', 'filledAssignmentId'])
      .where('id', '=', cand.offerId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (offer.status === 'filled') {
      // The same teammate pressing Accept again: still theirs.
      const f = await trx
        .selectFrom('servicePlanAssignments')
        .select('teamMemberId')
        .where('id', '=', offer.filledAssignmentId ?? -1)
        .executeTakeFirst();
      return { outcome: f?.teamMemberId === cand.teamMemberId ? ('accepted' as const) : ('filled' as const) };
    }
    if (offer.status !== 'open' || offer.expiresAt.getTime() <= now.getTime()) return { outcome: 'closed' as const };
    const a = await lockedAssignment(trx, { id: offer.assignmentId, tenantId: cand.userId });
    // Gone, or its person can serve after all (they accepted again: respondToRequest cancels the offer).
    if (!a || (offer.kind === 'substitute' && a.status !== 'declined')) return { outcome: 'closed' as const };
    // Still free: not scheduled that day since the offer was made (nor blocked out, nor at the limit).
    const free = await freeTeammates(trx, cand.userId, a);
    const me = free.find((m) => m.id === cand.teamMemberId);
    if (!me) return { outcome: 'unavailable' as const };
    const filled = await trx
      .insertInto('servicePlanAssignments')
      .values({
        userId: cand.userId,
        servicePlanId: a.planId,
        teamMemberId: me.id,
        positionId: a.positionId,
        // The same service time as the slot covered (null: all the plan's times).
        serviceTime: a.serviceTime,
        status: 'confirmed',
        requestedAt: now,
        respondedAt: now,
        notes: `Covering for ${a.name}`,
        token: crypto.randomBytes(32).toString('base64url'),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // A swap: the person who offered it no longer serves (a declined slot stays as it was).
    if (offer.kind === 'swap')
      await trx
        .updateTable('servicePlanAssignments')
        .set({ status: 'declined', respondedAt: now, updatedAt: now })
        .where('id', '=', a.id)
        .execute();
    await trx
      .updateTable('substituteOffers')
      .set({ status: 'filled', filledAssignmentId: filled.id, filledAt: now, updatedAt: now })
      .where('id', '=', offer.id)
      .execute();
    await trx.updateTable('substituteOfferCandidates').set({ answeredAt: now }).where('id', '=', cand.id).execute();
    const others = await trx
      .selectFrom('substituteOfferCandidates')
      .select(['id', 'teamMemberId'])
      .where('offerId', '=', offer.id)
      .where('id', '<>', cand.id)
      .execute();
    const base = { planId: a.planId, assignmentId: a.id, offerId: offer.id };
    for (const o of others)
      await queueNotice(trx, cand.userId, {
        ...base,
        notice: `filled:${o.id}`,
        targets: await memberTargets(trx, cand.userId, o.teamMemberId),
      });
    // The person who asked (after a decline they may still like to know; after a swap they must).
    await queueNotice(trx, cand.userId, {
      ...base,
      notice: 'covered',
      targets: await memberTargets(trx, cand.userId, a.teamMemberId),
    });
    await queueNotice(trx, cand.userId, {
      ...base,
      notice: 'leader-filled',
      targets: [await leaderTarget(trx, cand.userId)],
    });
    const ref = { ...slotRef(a), offerId: offer.id };
    await recordEvents(trx, cand.userId, [
      {
        type: 'plan.substitute_accepted',
        contactId: me.contactId,
        payload: { person: memberPerson(me), ...ref, assignmentId: filled.id, covering: a.name },
      },
      {
        type: 'plan.substitute_filled',
        contactId: a.contactId,
        payload: { person: memberPerson(a), ...ref, assignmentId: a.id, by: me.name },
      },
    ]);
    return { outcome: 'accepted' as const, planId: a.planId };
  });
  if ('planId' in result && result.planId) await deps.jobs.send('planner-notice-deliver', { planId: result.planId });
  return { outcome: result.outcome };
}
