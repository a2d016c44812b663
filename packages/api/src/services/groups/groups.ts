import { sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import { badRequest, notFound } from '../../errors.js';
import type {
  createGroupSchema,
  GroupRow,
  groupDetailSchema,
  listGroupsSchema,
  UpdateGroupInput,
} from '../../schemas/groups.js';
import { toCsv } from '../../render/csv.js';
import { deleteChurchRow, findChurchRow } from '../church-rows.js';
import { churchToday } from '../giving/giving-church.js';
import { groupStats, membersWhoMissed } from './stats.js';
import { nextMeeting } from './schedule.js';
import { addMembers } from './members.js';
import { WEEKDAYS } from '../../schemas/groups.js';

// Groups themselves: create, change (partial), delete, one with its figures, the list with filters
// and its CSV.

export const GROUP_MISSING = 'Group not found';

const COLUMNS = [
  'id',
  'name',
  'type',
  'description',
  'imageUrl',
  'frequency',
  'weekday',
  'meetsAt',
  'weekOfMonth',
  'startsOn',
  'address',
  'area',
  'areaPrecision',
  'latitude',
  'longitude',
  'tags',
  'capacity',
  'joinMode',
  'archivedAt',
  'createdAt',
  'updatedAt',
] as const;

type Base = Awaited<ReturnType<typeof baseRows>>[number];

function baseRows(db: Db, tenantId: number, ids?: number[]) {
  let q = db.selectFrom('groups').select(COLUMNS).where('userId', '=', tenantId);
  if (ids) q = q.where('id', 'in', ids.length ? ids : [0]);
  return q.orderBy('name').orderBy('id').execute();
}

/** The groups' rows as the API answers them: members, leaders, figures and the next meeting. */
async function withFigures(db: Db, tenantId: number, rows: Base[]): Promise<GroupRow[]> {
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  const [people, stats, today] = await Promise.all([
    db
      .selectFrom('groupMembers as m')
      .innerJoin('contacts as c', 'c.id', 'm.contactId')
      .select(['m.groupId', 'm.contactId', 'm.role', 'c.firstName', 'c.lastName'])
      .where('m.userId', '=', tenantId)
      .where('m.groupId', 'in', ids)
      .where('m.leftOn', 'is', null)
      .orderBy('c.firstName')
      .orderBy('c.lastName')
      .execute(),
    groupStats(db, tenantId, ids),
    churchToday(db, tenantId, new Date()),
  ]);
  return rows.map((r) => {
    const mine = people.filter((p) => p.groupId === r.id);
    const s = stats.get(r.id);
    return {
      ...r,
      time: r.meetsAt ? r.meetsAt.slice(0, 5) : null,
      archived: r.archivedAt !== null,
      memberCount: mine.length,
      leaders: mine
        .filter((p) => p.role === 'leader')
        .map((p) => ({ contactId: p.contactId, name: `${p.firstName} ${p.lastName}`.trim() })),
      attendanceRate: s?.attendanceRate ?? null,
      trend: s?.trend ?? null,
      nextMeeting: r.archivedAt ? null : nextMeeting(r, today),
    };
  });
}

type GroupDetail = z.input<typeof groupDetailSchema>;

export async function getGroup(db: Db, tenantId: number, input: { id: number }): Promise<GroupDetail> {
  const [row] = await withFigures(db, tenantId, await baseRows(db, tenantId, [input.id]));
  if (!row) throw notFound(GROUP_MISSING);
  const [recent, missedLastThree, pending] = await Promise.all([
    sql<{ id: number; date: string; time: string | null; present: string; visitors: number; recorded: boolean }>`
      select gm.id, gm.meets_on as date, to_char(gm.meets_at, 'HH24:MI') as time,
        (select count(*) from group_attendance a where a.meeting_id = gm.id) as present,
        cardinality(gm.visitors) as visitors, gm.attendance_recorded_at is not null as recorded
      from group_meetings gm where gm.user_id = ${tenantId} and gm.group_id = ${input.id}
      order by gm.meets_on desc, gm.id desc limit 12`.execute(db),
    membersWhoMissed(db, tenantId, { groupId: input.id, count: 3 }),
    db
      .selectFrom('groupJoinRequests')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('userId', '=', tenantId)
      .where('groupId', '=', input.id)
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow(),
  ]);
  return {
    ...row,
    recentMeetings: recent.rows.map((m) => ({ ...m, present: Number(m.present) })),
    missedLastThree,
    pendingRequests: Number(pending.n),
  };
}

type GroupValues = Omit<z.infer<typeof createGroupSchema>, 'leaderContactIds'>;

/** The columns of a group's fields as typed (time as `meets_at`, archived as `archived_at`). */
function columnsOf(v: Partial<GroupValues>) {
  const { time, archived, ...rest } = v;
  return {
    ...Object.fromEntries(Object.entries(rest).filter(([, x]) => x !== undefined)),
    ...(time !== undefined ? { meetsAt: time } : {}),
    ...(archived !== undefined ? { archivedAt: archived ? new Date() : null } : {}),
  };
}

export async function createGroup(
  db: Db,
  tenantId: number,
  input: z.infer<typeof createGroupSchema>,
): Promise<GroupDetail> {
  const { leaderContactIds, ...fields } = input;
  const id = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('groups')
      .values({ ...columnsOf(fields), name: fields.name, userId: tenantId })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (leaderContactIds.length > 0)
      await addMembers(trx, tenantId, { id: row.id, contactIds: leaderContactIds, role: 'leader' }, { via: 'staff' });
    return row.id;
  });
  return getGroup(db, tenantId, { id });
}

export async function updateGroup(db: Db, tenantId: number, input: UpdateGroupInput): Promise<GroupDetail> {
  const { id, ...fields } = input;
  await db.transaction().execute(async (trx) => {
    const was = await findChurchRow(trx, tenantId, { table: 'groups', id, missing: GROUP_MISSING, forUpdate: true });
    const frequency = fields.frequency ?? was.frequency;
    const weekday = fields.weekday !== undefined ? fields.weekday : was.weekday;
    if (frequency !== 'by_arrangement' && weekday === null)
      throw badRequest('Day is required unless it meets by arrangement', 'weekday');
    if (fields.capacity) {
      const members = await trx
        .selectFrom('groupMembers')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('userId', '=', tenantId)
        .where('groupId', '=', id)
        .where('leftOn', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(members.n) > fields.capacity)
        throw badRequest(`Capacity cannot be below the ${members.n} members the group has`, 'capacity');
    }
    // An archived group keeps the day it was archived.
    const set = columnsOf(fields);
    if (fields.archived === true && was.archivedAt) delete (set as { archivedAt?: unknown }).archivedAt;
    await trx
      .updateTable('groups')
      .set({ ...set, updatedAt: new Date() })
      .where('id', '=', id)
      .where('userId', '=', tenantId)
      .execute();
  });
  return getGroup(db, tenantId, { id });
}

export function deleteGroup(db: Db, tenantId: number, input: { id: number }): Promise<{ id: number }> {
  return deleteChurchRow(db, tenantId, { table: 'groups', id: input.id, missing: GROUP_MISSING });
}

type ListInput = z.infer<typeof listGroupsSchema>;

export async function listGroups(
  db: Db,
  tenantId: number,
  input: ListInput,
): Promise<{ groups: GroupRow[]; total: number } | { fileName: string; csv: string }> {
  let q = db.selectFrom('groups').select(COLUMNS).where('userId', '=', tenantId);
  q = q.where('archivedAt', input.archived ? 'is not' : 'is', null);
  if (input.type) q = q.where(sql<string>`lower(type)`, '=', input.type.toLowerCase());
  if (input.weekday !== undefined && input.weekday !== null) q = q.where('weekday', '=', input.weekday);
  if (input.search?.trim()) {
    const like = `%${input.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where('name', 'ilike', like);
  }
  if (input.leaderContactId)
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('groupMembers as m')
          .select('m.id')
          .whereRef('m.groupId', '=', 'groups.id')
          .where('m.contactId', '=', input.leaderContactId!)
          .where('m.role', '=', 'leader')
          .where('m.leftOn', 'is', null),
      ),
    );
  const rows = await q.orderBy('name').orderBy('id').limit(5000).execute();
  let groups = await withFigures(db, tenantId, rows);
  if (input.trend) groups = groups.filter((g) => g.trend === input.trend);
  if (input.format === 'csv') return { fileName: 'groups.csv', csv: groupsCsv(groups) };
  return { groups: groups.slice(input.offset, input.offset + input.limit), total: groups.length };
}

const FREQUENCY_WORDS = {
  weekly: 'Weekly',
  every_other_week: 'Every other week',
  monthly: 'Monthly',
  by_arrangement: 'By arrangement',
} as const;

function groupsCsv(groups: GroupRow[]): string {
  return toCsv([
    [
      'Name',
      'Type',
      'How often',
      'Day',
      'Time',
      'Area',
      'Tags',
      'Members',
      'Capacity',
      'Leaders',
      'Join',
      'Attendance rate',
      'Trend',
      'Next meeting',
    ],
    ...groups.map((g) => [
      g.name,
      g.type,
      FREQUENCY_WORDS[g.frequency],
      g.weekday === null || g.weekday === undefined ? '' : WEEKDAYS[g.weekday]!,
      g.time ?? '',
      g.area ?? '',
      (g.tags ?? []).join('; '),
      g.memberCount,
      g.capacity ?? null,
      g.leaders.map((l) => l.name).join('; '),
      g.joinMode ?? 'request',
      g.attendanceRate === null ? null : Math.round(g.attendanceRate * 100) / 100,
      g.trend ?? '',
      g.nextMeeting ?? '',
    ]),
  ]);
}
