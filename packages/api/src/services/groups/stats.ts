import { sql, type Db } from '@lampstand/db';
import type { ATTENDANCE_TRENDS } from '../../schemas/groups.js';

// Attendance figures of groups, read in one statement for many groups: the share of members present
// over the last 8 meetings with attendance, and the trend of the last 4 against the 4 before them.
// A member counts for a meeting they belonged to on its day (joined on or before, not yet left), or
// came to (a meeting recorded later than it was held).

export interface GroupStats {
  attendanceRate: number | null;
  trend: (typeof ATTENDANCE_TRENDS)[number] | null;
}

/** A change of more than this share between the two windows is a trend up or down. */
const TREND_STEP = 0.1;

const rate = (present: number, eligible: number) => (eligible > 0 ? Math.min(1, present / eligible) : null);

export async function groupStats(db: Db, tenantId: number, groupIds: number[]): Promise<Map<number, GroupStats>> {
  const out = new Map<number, GroupStats>();
  if (groupIds.length === 0) return out;
  const { rows } = await sql<{
    groupId: number;
    p8: string;
    e8: string;
    p4: string;
    e4: string;
    pOld: string;
    eOld: string;
  }>`
    with m as (
      select gm.id, gm.group_id, gm.meets_on,
        row_number() over (partition by gm.group_id order by gm.meets_on desc, gm.id desc) as n
      from group_meetings gm
      where gm.user_id = ${tenantId} and gm.group_id = any(${groupIds}::int[])
        and gm.attendance_recorded_at is not null
    ), s as (
      select m.group_id, m.n,
        (select count(*) from group_attendance a where a.meeting_id = m.id) as present,
        (select count(*) from group_members b
          where b.group_id = m.group_id and ((b.joined_on <= m.meets_on
            and (b.left_on is null or b.left_on > m.meets_on))
            or exists (select 1 from group_attendance a where a.meeting_id = m.id and a.contact_id = b.contact_id)))
          as eligible
      from m where m.n <= 8
    )
    select group_id as "groupId",
      sum(present) as p8, sum(eligible) as e8,
      coalesce(sum(present) filter (where n <= 4), 0) as p4, coalesce(sum(eligible) filter (where n <= 4), 0) as e4,
      coalesce(sum(present) filter (where n > 4), 0) as "pOld", coalesce(sum(eligible) filter (where n > 4), 0) as "eOld"
    from s group by group_id`.execute(db);
  for (const r of rows) {
    const recent = rate(Number(r.p4), Number(r.e4));
    const earlier = rate(Number(r.pOld), Number(r.eOld));
    const trend =
      recent === null || earlier === null
        ? null
        : recent - earlier > TREND_STEP
          ? 'up'
          : earlier - recent > TREND_STEP
            ? 'down'
            : 'steady';
    out.set(r.groupId, { attendanceRate: rate(Number(r.p8), Number(r.e8)), trend });
  }
  return out;
}

/** Current members of the group absent from each of its last `count` meetings with attendance. */
export async function membersWhoMissed(
  db: Db,
  tenantId: number,
  input: { groupId: number; count: number },
): Promise<{ contactId: number; name: string }[]> {
  const { rows } = await sql<{ contactId: number; name: string }>`
    with last as (
      select id, meets_on from group_meetings
      where user_id = ${tenantId} and group_id = ${input.groupId} and attendance_recorded_at is not null
      order by meets_on desc, id desc limit ${input.count}
    )
    select b.contact_id as "contactId", trim(c.first_name || ' ' || c.last_name) as name
    from group_members b join contacts c on c.id = b.contact_id
    where b.user_id = ${tenantId} and b.group_id = ${input.groupId} and b.left_on is null
      and (select count(*) from last) = ${input.count}
      and b.joined_on <= (select min(meets_on) from last)
      and not exists (
        select 1 from group_attendance a join last on last.id = a.meeting_id where a.contact_id = b.contact_id)
    order by name, b.contact_id`.execute(db);
  return rows;
}
