import { sql, tenantDb, type Db } from '@lampstand/db';
import { notFound } from '../../errors.js';
import { blockoutFieldsSchema, type MatrixStatus } from '../../schemas/service-planner.js';
import { matrixStatusOf } from '../../shared/service-planner.js';
import type { BlockoutRecurrence } from '../service-planner/auto-schedule.js';
import { respondToRequest, shortTime } from '../service-planner/assignments.js';
import { addBlockout, deleteBlockout } from '../service-planner/team.js';
import { actingAs, portalActor, PUBLIC_ACTOR } from '../events/actor.js';
import type { PortalSession } from './sessions.js';
import type { Locale } from '../../shared/format.js';

// 'My schedule' in the members' portal: a volunteer (a contact of the session who is
// a planner team member) sees what they are scheduled for and answers, and keeps their blockout
// dates. Only the session's own members are reachable: any other id is 'not found'.

export interface PortalAssignment {
  id: number;
  planTitle: string;
  /** YYYY-MM-DD */
  date: string;
  /** '9:00 AM', '9:00 AM and 11:00 AM' for all of a plan's times, or null when the plan has none. */
  time: string | null;
  location: string | null;
  positionName: string | null;
  status: MatrixStatus;
}

export interface PortalBlockout {
  id: number;
  startsOn: string;
  endsOn: string;
  reason: string | null;
  recurrence: BlockoutRecurrence | null;
}

export interface PortalVolunteer {
  memberId: number;
  name: string;
  assignments: PortalAssignment[];
  blockouts: PortalBlockout[];
}

const timesWords = (times: string[], o: Locale) => {
  const t = times.map((x) => shortTime(x, o));
  return t.length <= 1 ? t.join('') : `${t.slice(0, -1).join(', ')} and ${t.at(-1)!}`;
};

/** The session's team members with their assignments from today on and their current blockouts. */
export async function portalSchedule(db: Db, s: PortalSession, o: Locale = {}): Promise<PortalVolunteer[]> {
  if (s.contactIds.length === 0) return [];
  const tdb = tenantDb(db, s.userId);
  const members = await tdb
    .selectFrom('teamMembers')
    .select(['id', 'name'])
    .where('userId', '=', s.userId)
    .where('contactId', 'in', s.contactIds)
    .orderBy('name')
    .orderBy('id')
    .execute();
  if (members.length === 0) return [];
  const ids = members.map((m) => m.id);
  const [assignments, blockouts] = await Promise.all([
    tdb
      .selectFrom('servicePlanAssignments as a')
      .innerJoin('servicePlans as p', 'p.id', 'a.servicePlanId')
      .leftJoin('teamPositions as pos', 'pos.id', 'a.positionId')
      .select(['a.id', 'a.teamMemberId', 'a.status', 'a.serviceTime', 'pos.name as positionName'])
      .select(['p.title', 'p.date', 'p.startTime', 'p.serviceTimes', 'p.location'])
      .where('a.userId', '=', s.userId)
      .where('a.teamMemberId', 'in', ids)
      .where('p.date', '>=', sql<string>`current_date`)
      .orderBy('p.date')
      .orderBy('a.serviceTime')
      .orderBy('a.id')
      .execute(),
    tdb
      .selectFrom('teamMemberBlockouts')
      .select(['id', 'teamMemberId', 'startsOn', 'endsOn', 'reason', 'recurrence'])
      .where('userId', '=', s.userId)
      .where('teamMemberId', 'in', ids)
      .where('endsOn', '>=', sql<string>`current_date`)
      .orderBy('startsOn')
      .orderBy('id')
      .execute(),
  ]);
  return members.map((m) => ({
    memberId: m.id,
    name: m.name,
    assignments: assignments
      .filter((a) => a.teamMemberId === m.id)
      .map((a) => ({
        id: a.id,
        planTitle: a.title,
        date: a.date,
        time: a.serviceTime
          ? shortTime(a.serviceTime, o)
          : a.serviceTimes.length
            ? timesWords(a.serviceTimes, o)
            : a.startTime
              ? shortTime(a.startTime, o)
              : null,
        location: a.location,
        positionName: a.positionName ?? null,
        status: matrixStatusOf(a.status),
      })),
    blockouts: blockouts
      .filter((b) => b.teamMemberId === m.id)
      .map(({ teamMemberId: _m, ...b }) => ({ ...b, recurrence: b.recurrence ?? null })),
  }));
}

/** One of the session's team members, or a 404. */
async function sessionMember(db: Db, s: PortalSession, memberId: number): Promise<void> {
  const m = await tenantDb(db, s.userId)
    .selectFrom('teamMembers')
    .select('id')
    .where('userId', '=', s.userId)
    .where('id', '=', memberId)
    .where('contactId', 'in', s.contactIds.length ? s.contactIds : [-1])
    .executeTakeFirst();
  if (!m) throw notFound('Not found');
}

/**
 * Accept or decline from the portal: the same answer as the request email's buttons
 * (respondToRequest, with its event), for an assignment of one of the session's members.
 */
export async function answerPortalAssignment(
  db: Db,
  s: PortalSession,
  input: { assignmentId: number; response: 'accept' | 'decline' },
): Promise<void> {
  const tdb = tenantDb(db, s.userId);
  const a = await tdb
    .selectFrom('servicePlanAssignments as a')
    .innerJoin('teamMembers as m', 'm.id', 'a.teamMemberId')
    .select(['a.token', 'm.contactId'])
    .where('a.userId', '=', s.userId)
    .where('a.id', '=', input.assignmentId)
    .where('m.contactId', 'in', s.contactIds.length ? s.contactIds : [-1])
    .executeTakeFirst();
  if (!a) throw notFound('Not found');
  // The person answers, through the portal (the team member was found by the session's contact).
  const actor = a.contactId === null ? PUBLIC_ACTOR : portalActor(a.contactId);
  await respondToRequest(actingAs(tdb, actor), { token: a.token, response: input.response });
}

/** The blockout form's fields as posted (a recurrence from 'repeat', 'nth', 'weekday', 'interval'). */
export interface PortalBlockoutForm {
  memberId: number;
  startsOn: string;
  endsOn: string;
  reason: string;
  repeat: string;
  nth: string;
  weekday: string;
  interval: string;
}

/**
 * Add blockout dates for one of the session's members: checked by the staff's schema (a ZodError
 * names the field); an empty end date is the start date (one day).
 */
export async function addPortalBlockout(db: Db, s: PortalSession, form: PortalBlockoutForm): Promise<void> {
  await sessionMember(db, s, form.memberId);
  const recurrence =
    form.repeat === 'month'
      ? { every: 'month', nth: Number(form.nth), weekday: Number(form.weekday) }
      : form.repeat === 'weeks'
        ? { every: 'weeks', interval: Number(form.interval), weekday: Number(form.weekday) }
        : null;
  const input = blockoutFieldsSchema.parse({
    memberId: form.memberId,
    startsOn: form.startsOn,
    endsOn: form.endsOn || form.startsOn,
    reason: form.reason,
    recurrence,
  });
  await addBlockout(tenantDb(db, s.userId), s.userId, input);
}

/** Remove blockout dates of one of the session's members (another's: 404). */
export async function deletePortalBlockout(db: Db, s: PortalSession, blockoutId: number): Promise<void> {
  const b = await tenantDb(db, s.userId)
    .selectFrom('teamMemberBlockouts')
    .select('teamMemberId')
    .where('userId', '=', s.userId)
    .where('id', '=', blockoutId)
    .executeTakeFirst();
  if (!b) throw notFound('Not found');
  await sessionMember(db, s, b.teamMemberId);
  await deleteBlockout(tenantDb(db, s.userId), s.userId, { id: blockoutId });
}
