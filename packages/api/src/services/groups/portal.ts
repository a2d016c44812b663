import { tenantDb, type Db } from '@lampstand/db';
import { notFound } from '../../errors.js';
import type { GroupMember, Meeting } from '../../schemas/groups-people.js';
import { actingAs, portalActor } from '../events/actor.js';
import type { PortalSession } from '../portal/sessions.js';
import { churchToday } from '../giving/giving-church.js';
import { decideJoinRequest, listJoinRequests } from './join.js';
import { createMeeting, meetingsOf, recordAttendance } from './meetings.js';
import { leaveGroup, listMembers } from './members.js';
import { meetsOn, nextMeeting } from './schedule.js';
import { sendGroupMessage, type GroupMessageDeps } from './messages.js';
import type { GroupMessageInput, GroupMessageResult } from '../../schemas/groups-people.js';

// The members' portal side of groups. A member sees their groups with the next meeting and may
// leave one; a leader (a contact of the session who leads the group) also reads the roster with
// phone and email, answers join requests and records attendance. Every group id is checked against
// the session's contacts: a group the session does not lead (or belong to) is 404, like every
// portal id. Reads and writes go through the church's row policy (`tenantDb`).

export const GROUP_MISSING = 'Group not found';

export interface PortalGroup {
  id: number;
  name: string;
  type: string;
  /** The session's contact in it, and their role. */
  contactId: number;
  role: 'leader' | 'member';
  nextMeeting: string | null;
  time: string | null;
  area: string | null;
}

/** The session's groups (current memberships), leaders' groups first. */
export async function portalMyGroups(db: Db, s: PortalSession): Promise<PortalGroup[]> {
  if (s.contactIds.length === 0) return [];
  const tdb = tenantDb(db, s.userId);
  const rows = await tdb
    .selectFrom('groupMembers as m')
    .innerJoin('groups as g', 'g.id', 'm.groupId')
    .select(['g.id', 'g.name', 'g.type', 'g.frequency', 'g.weekday', 'g.weekOfMonth', 'g.startsOn', 'g.meetsAt'])
    .select(['g.area', 'g.areaPrecision', 'm.contactId', 'm.role'])
    .where('m.userId', '=', s.userId)
    .where('m.contactId', 'in', s.contactIds)
    .where('m.leftOn', 'is', null)
    .where('g.archivedAt', 'is', null)
    .orderBy('m.role')
    .orderBy('g.name')
    .orderBy('g.id')
    .execute();
  const today = await churchToday(tdb, s.userId, new Date());
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    type: r.type,
    contactId: r.contactId,
    role: r.role,
    nextMeeting: nextMeeting(r, today),
    time: r.meetsAt ? r.meetsAt.slice(0, 5) : null,
    area: r.areaPrecision === 'suburb' ? r.area : null,
  }));
}

/** The session's contact leading the group, or 404: only leaders reach a group's roster. */
async function leaderOf(db: Db, s: PortalSession, groupId: number): Promise<number> {
  const groups = await portalMyGroups(db, s);
  const led = groups.find((g) => g.id === groupId && g.role === 'leader');
  if (!led) throw notFound(GROUP_MISSING);
  return led.contactId;
}

/** A leader's roster: the group's current members with phone and email. */
export async function portalRoster(db: Db, s: PortalSession, groupId: number): Promise<GroupMember[]> {
  await leaderOf(db, s, groupId);
  return listMembers(tenantDb(db, s.userId), s.userId, { id: groupId });
}

export async function portalJoinRequests(db: Db, s: PortalSession, groupId: number) {
  await leaderOf(db, s, groupId);
  return listJoinRequests(tenantDb(db, s.userId), s.userId, { id: groupId });
}

export async function portalDecideRequest(
  db: Db,
  s: PortalSession,
  input: { groupId: number; requestId: number; decision: 'approve' | 'decline' },
) {
  const leader = await leaderOf(db, s, input.groupId);
  return decideJoinRequest(actingAs(tenantDb(db, s.userId), portalActor(leader)), s.userId, {
    id: input.groupId,
    requestId: input.requestId,
    decision: input.decision,
  });
}

/**
 * A leader records a meeting's attendance in one call: the meeting of `date` (the church's today
 * when none) is found or made, then its attendance replaced; the phone's `clientKey` makes a
 * submission sent twice count once.
 */
export async function portalRecordAttendance(
  db: Db,
  s: PortalSession,
  input: { groupId: number; date?: string; present: number[]; visitors: string[]; clientKey?: string },
): Promise<Meeting & { applied: boolean }> {
  const leader = await leaderOf(db, s, input.groupId);
  const tdb = actingAs(tenantDb(db, s.userId), portalActor(leader));
  const meeting = await createMeeting(tdb, s.userId, { id: input.groupId, date: input.date });
  return recordAttendance(tdb, s.userId, {
    id: input.groupId,
    meetingId: meeting.id,
    present: input.present,
    visitors: input.visitors,
    clientKey: input.clientKey,
  });
}

/** A leader emails or texts their group's other members, under the leader's own name. */
export async function portalSendGroupMessage(
  deps: GroupMessageDeps,
  s: PortalSession,
  input: GroupMessageInput,
): Promise<GroupMessageResult> {
  const leader = await leaderOf(deps.db, s, input.id);
  const tdb = tenantDb(deps.db, s.userId);
  const me = await tdb
    .selectFrom('contacts')
    .select(['firstName', 'lastName', 'email'])
    .where('id', '=', leader)
    .where('userId', '=', s.userId)
    .executeTakeFirstOrThrow();
  const name = `${me.firstName} ${me.lastName}`.trim() || me.email || 'Your group leader';
  return sendGroupMessage({ db: tdb, jobs: deps.jobs }, s.userId, { ...input, sender: { contactId: leader, name } });
}

/** A member leaves one of their groups (every contact of the session in it). */
export async function portalLeaveGroup(db: Db, s: PortalSession, groupId: number): Promise<void> {
  const mine = (await portalMyGroups(db, s)).filter((g) => g.id === groupId);
  if (mine.length === 0) throw notFound(GROUP_MISSING);
  await actingAs(tenantDb(db, s.userId), portalActor(mine[0]!.contactId))
    .transaction()
    .execute((trx) =>
      leaveGroup(trx, s.userId, { id: groupId, contactIds: mine.map((g) => g.contactId) }, { via: 'portal' }),
    );
}

/** A day a leader may take attendance for: today first, then the group's recent meeting days. */
export interface MeetingChoice {
  date: string;
  today: boolean;
  recorded: boolean;
}

export interface PortalLedGroup {
  group: PortalGroup;
  today: string;
  roster: GroupMember[];
  requests: Awaited<ReturnType<typeof listJoinRequests>>;
  /** The meetings of the last four weeks with attendance or not, newest first. */
  meetings: Meeting[];
  choices: MeetingChoice[];
}

const minusDays = (day: string, n: number) =>
  new Date(new Date(`${day}T00:00:00Z`).getTime() - n * 86_400_000).toISOString().slice(0, 10);

/**
 * A leader's page of their group: the roster, pending requests, recent meetings, and the days to
 * take attendance for (today's first, then the schedule's and the meetings' days of four weeks).
 */
export async function portalLedGroup(db: Db, s: PortalSession, groupId: number): Promise<PortalLedGroup> {
  const group = (await portalMyGroups(db, s)).find((g) => g.id === groupId && g.role === 'leader');
  if (!group) throw notFound(GROUP_MISSING);
  const tdb = tenantDb(db, s.userId);
  const today = await churchToday(tdb, s.userId, new Date());
  const schedule = await tdb
    .selectFrom('groups')
    .select(['frequency', 'weekday', 'weekOfMonth', 'startsOn'])
    .where('userId', '=', s.userId)
    .where('id', '=', groupId)
    .executeTakeFirstOrThrow();
  const from = minusDays(today, 28);
  const [roster, requests, recent] = await Promise.all([
    listMembers(tdb, s.userId, { id: groupId }),
    listJoinRequests(tdb, s.userId, { id: groupId }),
    meetingsOf(tdb, s.userId, { groupId, from, to: today }),
  ]);
  const meetings = [...recent].reverse();
  const days = new Set<string>([today, ...meetings.map((m) => m.date)]);
  for (let i = 1; i <= 28; i++) if (meetsOn(schedule, minusDays(today, i))) days.add(minusDays(today, i));
  const choices = [...days]
    .sort((a, b) => (a === today ? -1 : b === today ? 1 : b.localeCompare(a)))
    .slice(0, 6)
    .map((date) => ({ date, today: date === today, recorded: meetings.some((m) => m.date === date && m.recorded) }));
  return { group, today, roster, requests, meetings, choices };
}
