import { sql, type Db } from '@lampstand/db';
import { badRequest, notFound } from '../../errors.js';
import type { AttendanceInput, ChurchAttendance, Meeting } from '../../schemas/groups-people.js';
import { findChurchRow } from '../church-rows.js';
import { recordEvent } from '../events/record.js';
import { churchToday } from '../giving/giving-church.js';

// A group's meetings and who came. A group has at most one meeting a day, so asking for a day's
// meeting twice (a leader's phone offline, then online) answers the same meeting. Attendance is
// replaced whole (PUT); a submission carries the client's key, and a key already applied to the
// meeting changes nothing and records no second event.

const GROUP_MISSING = 'Group not found';
export const MEETING_MISSING = 'Meeting not found';

/** The meetings of these ids (or of a group between two days), with who came, oldest first. */
export async function meetingsOf(
  db: Db,
  tenantId: number,
  where: { ids: number[] } | { groupId: number; from?: string; to?: string },
): Promise<Meeting[]> {
  const filter =
    'ids' in where
      ? sql`gm.id = any(${where.ids}::int[])`
      : sql`gm.group_id = ${where.groupId}
          ${where.from ? sql`and gm.meets_on >= ${where.from}` : sql``}
          ${where.to ? sql`and gm.meets_on <= ${where.to}` : sql``}`;
  const { rows } = await sql<Meeting & { present: { contactId: number; name: string }[] | null }>`
    select gm.id, gm.group_id as "groupId", gm.meets_on as date, to_char(gm.meets_at, 'HH24:MI') as time,
      gm.note, gm.visitors, gm.attendance_recorded_at is not null as recorded,
      gm.attendance_recorded_at as "recordedAt",
      (select json_agg(json_build_object('contactId', c.id, 'name', trim(c.first_name || ' ' || c.last_name))
              order by c.first_name, c.last_name, c.id)
         from group_attendance a join contacts c on c.id = a.contact_id where a.meeting_id = gm.id) as present
    from group_meetings gm
    where gm.user_id = ${tenantId} and ${filter}
    order by gm.meets_on, gm.id
    limit 2000`.execute(db);
  return rows.map((r) => ({ ...r, present: r.present ?? [] }));
}

export async function listMeetings(
  db: Db,
  tenantId: number,
  input: { id: number; from?: string; to?: string },
): Promise<Meeting[]> {
  await findChurchRow(db, tenantId, { table: 'groups', id: input.id, missing: GROUP_MISSING, columns: ['id'] });
  return meetingsOf(db, tenantId, { groupId: input.id, from: input.from, to: input.to });
}

/**
 * The group's meeting on `date` (the church's today when none), made when it has none: its time is
 * the one given, else the group's. Asked twice, the second answers the first's (`created` false).
 */
export async function createMeeting(
  db: Db,
  tenantId: number,
  input: { id: number; date?: string; time?: string | null; note?: string | null },
): Promise<Meeting & { created: boolean }> {
  const group = await findChurchRow(db, tenantId, {
    table: 'groups',
    id: input.id,
    missing: GROUP_MISSING,
    columns: ['id', 'meetsAt'],
  });
  const date = input.date ?? (await churchToday(db, tenantId, new Date()));
  const made = await db
    .insertInto('groupMeetings')
    .values({
      userId: tenantId,
      groupId: group.id,
      meetsOn: date,
      meetsAt: input.time !== undefined ? input.time : group.meetsAt,
      note: input.note ?? null,
    })
    .onConflict((oc) => oc.columns(['groupId', 'meetsOn']).doNothing())
    .returning('id')
    .executeTakeFirst();
  const [meeting] = made
    ? await meetingsOf(db, tenantId, { ids: [made.id] })
    : await meetingsOf(db, tenantId, { groupId: group.id, from: date, to: date });
  return { ...meeting!, created: Boolean(made) };
}

/**
 * Replaces a meeting's attendance: the members present (each must be or have been in the group,
 * else 400 on `present`) and visitors by name; one `group.attendance_recorded`
 * event. With a `clientKey` already applied to this meeting, nothing changes (`applied` false).
 */
export async function recordAttendance(
  db: Db,
  tenantId: number,
  input: AttendanceInput & { id: number; meetingId: number },
): Promise<Meeting & { applied: boolean }> {
  const applied = await db.transaction().execute(async (trx) => {
    const group = await findChurchRow(trx, tenantId, {
      table: 'groups',
      id: input.id,
      missing: GROUP_MISSING,
      columns: ['id', 'name'],
    });
    const meeting = await trx
      .selectFrom('groupMeetings')
      .select(['id', 'meetsOn'])
      .where('id', '=', input.meetingId)
      .where('groupId', '=', group.id)
      .where('userId', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    if (!meeting) throw notFound(MEETING_MISSING);
    if (input.clientKey) {
      const fresh = await trx
        .insertInto('groupAttendanceKeys')
        .values({ userId: tenantId, meetingId: meeting.id, clientKey: input.clientKey })
        .onConflict((oc) => oc.columns(['meetingId', 'clientKey']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!fresh) return false;
    }
    const present = [...new Set(input.present)];
    if (present.length > 0) {
      const members = await trx
        .selectFrom('groupMembers')
        .select('contactId')
        .where('userId', '=', tenantId)
        .where('groupId', '=', group.id)
        .where('contactId', 'in', present)
        .execute();
      const outside = present.filter((c) => !members.some((m) => m.contactId === c));
      if (outside.length > 0) throw badRequest(`Present: ${outside.join(', ')} not a member of this group`, 'present');
    }
    await trx.deleteFrom('groupAttendance').where('meetingId', '=', meeting.id).execute();
    if (present.length > 0)
      await trx
        .insertInto('groupAttendance')
        .values(present.map((contactId) => ({ userId: tenantId, meetingId: meeting.id, contactId })))
        .execute();
    await trx
      .updateTable('groupMeetings')
      .set({ visitors: input.visitors, attendanceRecordedAt: new Date() })
      .where('id', '=', meeting.id)
      .execute();
    await recordEvent(trx, tenantId, {
      type: 'group.attendance_recorded',
      payload: {
        group: { id: group.id, name: group.name },
        meetingId: meeting.id,
        date: meeting.meetsOn,
        present: present.length,
        visitors: input.visitors.length,
      },
    });
    return true;
  });
  const [meeting] = await meetingsOf(db, tenantId, { ids: [input.meetingId] });
  return { ...meeting!, applied };
}

type ChurchAttendanceInput = { from: string; to: string; groupIds?: number[]; cursor?: string; limit: number };

/**
 * Every meeting of the church's groups (or of `groupIds`) from–to with its attendance, in one
 * answer paged by meeting (date, then id): `nextCursor` continues after the last one. The page is
 * JSON (`churchAttendanceOutputSchema`'s shape) put together by one statement from each meeting's
 * JSON as `group_meeting_rows` keeps it (written by triggers with the meeting, its attendance and
 * its group's name, migration 0155), so the REST route sends it as it comes: a page of 5,000
 * meetings is ~1 MB, and reading it into objects, checking each row and writing it again cost
 * more than the statement.
 */
export async function churchAttendanceJson(db: Db, tenantId: number, input: ChurchAttendanceInput): Promise<string> {
  const [afterDate, afterId] = input.cursor ? input.cursor.split('_') : [null, null];
  const { rows } = await sql<{ page: string }>`
    select '{"meetings":[' || coalesce(string_agg(r.json, ',' order by r.meets_on, r.meeting_id)
        filter (where r.n <= ${input.limit}), '')
      || '],"nextCursor":' || case when count(*) > ${input.limit}
        then '"' || max(to_char(r.meets_on, 'YYYY-MM-DD') || '_' || r.meeting_id) filter (where r.n = ${input.limit}) || '"'
        else 'null' end
      || '}' as page
    from (
      select r.meeting_id, r.meets_on, r.json, row_number() over (order by r.meets_on, r.meeting_id) as n
      from (
        select r.meeting_id, r.meets_on, r.json
        from group_meeting_rows r
        where r.user_id = ${tenantId} and r.meets_on between ${input.from} and ${input.to}
          ${input.groupIds ? sql`and r.group_id = any(${input.groupIds}::int[])` : sql``}
          ${afterDate ? sql`and (r.meets_on, r.meeting_id) > (${afterDate}::date, ${Number(afterId)}::int)` : sql``}
        order by r.meets_on, r.meeting_id
        limit ${input.limit + 1}
      ) r
    ) r`.execute(db);
  return rows[0]!.page;
}

/** The same page as values (tRPC, and the service's callers). */
export async function churchAttendance(
  db: Db,
  tenantId: number,
  input: ChurchAttendanceInput,
): Promise<ChurchAttendance> {
  return JSON.parse(await churchAttendanceJson(db, tenantId, input)) as ChurchAttendance;
}
