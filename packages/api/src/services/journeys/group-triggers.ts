import { sql, type Db } from '@lampstand/db';
import type { JourneyTrigger } from '../../schemas/journeys.js';

// The groups' journey triggers: joining a group, asking to join one, and missing its last N
// meetings in a row. Each enrolment's trigger key names the group (`group:{id}:…`), so a step can
// find the group that started it (a task for its leader).

type GroupTrigger = Extract<JourneyTrigger, { kind: 'group_joined' | 'group_join_requested' | 'group_missed' }>;

/** The event each group trigger reads. */
export const GROUP_TRIGGER_EVENT = {
  group_joined: 'group.member_joined',
  group_join_requested: 'group.join_requested',
  group_missed: 'group.attendance_recorded',
} as const;

export function isGroupTrigger(t: JourneyTrigger): t is GroupTrigger {
  return t.kind in GROUP_TRIGGER_EVENT;
}

interface GroupEvent {
  id: number;
  type: string;
  contactId: number | null;
  payload: Record<string, unknown>;
}

/** The group a group event is about. */
function groupOf(e: GroupEvent): number | null {
  const g = e.payload.group;
  return g && typeof g === 'object' && 'id' in g ? Number(g.id) : null;
}

/** The group of an enrolment started by a group trigger (from its trigger key), else null. */
export function groupOfTriggerKey(key: string | null): number | null {
  const m = /^group:(\d+):/.exec(key ?? '');
  return m ? Number(m[1]) : null;
}

/**
 * Who event `e` enters into a journey with group trigger `t`, under one trigger key: the person
 * who joined or asked (keyed by the event), or, for an attendance recorded, the current members
 * whose run of missed meetings has just reached `count` (keyed by the group's latest meeting, so
 * the same attendance recorded again enters nobody twice).
 */
export async function groupTriggerEntrants(
  trx: Db,
  tenantId: number,
  t: GroupTrigger,
  e: GroupEvent,
): Promise<{ key: string; contactIds: number[] } | null> {
  const groupId = groupOf(e);
  if (e.type !== GROUP_TRIGGER_EVENT[t.kind] || groupId === null) return null;
  if (t.groupId !== null && t.groupId !== groupId) return null;
  if (t.kind !== 'group_missed')
    return e.contactId ? { key: `group:${groupId}:event:${e.id}`, contactIds: [e.contactId] } : null;
  const missed = await membersWhoJustMissed(trx, tenantId, { groupId, count: t.count });
  if (missed.contactIds.length === 0) return null;
  return { key: `group:${groupId}:missed:${t.count}:${missed.latestMeetingId}`, contactIds: missed.contactIds };
}

/**
 * Current members of the group absent from exactly its last `count` meetings with attendance: they
 * were members on the day of each, came to none, and came to the meeting before those (or were not
 * a member yet, or there was none).
 */
export async function membersWhoJustMissed(
  db: Db,
  tenantId: number,
  input: { groupId: number; count: number },
): Promise<{ latestMeetingId: number | null; contactIds: number[] }> {
  const { rows } = await sql<{ contactId: number; latest: number }>`
    with recorded as (
      select id, meets_on, row_number() over (order by meets_on desc, id desc) as n
      from group_meetings
      where user_id = ${tenantId} and group_id = ${input.groupId} and attendance_recorded_at is not null
      order by meets_on desc, id desc limit ${input.count + 1}
    ),
    last as (select id, meets_on from recorded where n <= ${input.count}),
    before as (select id, meets_on from recorded where n = ${input.count + 1})
    select b.contact_id as "contactId", (select id from recorded where n = 1) as latest
    from group_members b
    where b.user_id = ${tenantId} and b.group_id = ${input.groupId} and b.left_on is null
      and (select count(*) from last) = ${input.count}
      and b.joined_on <= (select min(meets_on) from last)
      and not exists (
        select 1 from group_attendance a join last on last.id = a.meeting_id where a.contact_id = b.contact_id)
      and not exists (
        select 1 from before p where b.joined_on <= p.meets_on
          and not exists (select 1 from group_attendance a where a.meeting_id = p.id and a.contact_id = b.contact_id))
    order by b.contact_id`.execute(db);
  return { latestMeetingId: rows[0] ? Number(rows[0].latest) : null, contactIds: rows.map((r) => r.contactId) };
}

/** The leader of a group a task goes to: its first current leader with an email, and the group's name. */
export async function groupLeaderOf(
  db: Db,
  tenantId: number,
  groupId: number,
): Promise<{
  groupName: string;
  leader: { id: number; firstName: string; lastName: string; email: string } | null;
} | null> {
  const group = await db
    .selectFrom('groups')
    .select('name')
    .where('id', '=', groupId)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!group) return null;
  const leader = await db
    .selectFrom('groupMembers as m')
    .innerJoin('contacts as c', 'c.id', 'm.contactId')
    .select(['c.id', 'c.firstName', 'c.lastName', 'c.email'])
    .where('m.userId', '=', tenantId)
    .where('m.groupId', '=', groupId)
    .where('m.role', '=', 'leader')
    .where('m.leftOn', 'is', null)
    .where('c.email', 'is not', null)
    .where('c.email', '<>', '')
    .orderBy('m.joinedOn')
    .orderBy('m.id')
    .limit(1)
    .executeTakeFirst();
  return { groupName: group.name, leader: leader ? { ...leader, email: leader.email! } : null };
}
