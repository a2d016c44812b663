import { sql, type Db } from '@lampstand/db';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { GroupMember } from '../../schemas/groups-people.js';
import type { NewEvent } from '../../schemas/events.js';
import { findChurchRow } from '../church-rows.js';
import { personOf, recordEvents } from '../events/record.js';

// A group's people: the roster with each member's attendance, adding (or re-adding) people,
// leaving, and moving or copying people to another group. Leaving keeps the row (`left_on`), so
// attendance history stays; re-adding someone who left starts a new membership today.

const GROUP_MISSING = 'Group not found';
export const MEMBER_MISSING = 'Member not found';
type Via = 'staff' | 'finder' | 'request' | 'move';

/** The roster: current members (and those who left, when asked), leaders first. */
export async function listMembers(
  db: Db,
  tenantId: number,
  input: { id: number; includeLeft?: boolean },
): Promise<GroupMember[]> {
  await findChurchRow(db, tenantId, { table: 'groups', id: input.id, missing: GROUP_MISSING, columns: ['id'] });
  const { rows } = await sql<GroupMember & { meetings: string; attended: string }>`
    select b.id, b.contact_id as "contactId", trim(c.first_name || ' ' || c.last_name) as name,
      c.email, c.phone, b.role, b.joined_on as "joinedOn", b.left_on as "leftOn",
      (select count(*) from group_meetings m where m.group_id = b.group_id and m.attendance_recorded_at is not null
        and m.meets_on >= b.joined_on and (b.left_on is null or m.meets_on < b.left_on)) as meetings,
      (select count(*) from group_attendance a join group_meetings m on m.id = a.meeting_id
        where m.group_id = b.group_id and a.contact_id = b.contact_id) as attended
    from group_members b join contacts c on c.id = b.contact_id
    where b.user_id = ${tenantId} and b.group_id = ${input.id} ${input.includeLeft ? sql`` : sql`and b.left_on is null`}
    order by b.left_on is not null, b.role = 'member', c.first_name, c.last_name, b.id`.execute(db);
  return rows.map((r) => ({ ...r, meetings: Number(r.meetings), attended: Number(r.attended) }));
}

/**
 * Adds people to a group in the caller's transaction: new people and people who had left join
 * today (a `group.member_joined` event each); people already in it take the role given. The group
 * must not go over its capacity (409 on `capacity`). Contacts must be the church's (404).
 */
export async function addMembers(
  trx: Db,
  tenantId: number,
  input: { id: number; contactIds: number[]; role: 'leader' | 'member' },
  opts: { via: Via },
): Promise<{ joined: number[] }> {
  const group = await findChurchRow(trx, tenantId, {
    table: 'groups',
    id: input.id,
    missing: GROUP_MISSING,
    columns: ['id', 'name', 'capacity'],
    forUpdate: true,
  });
  const ids = [...new Set(input.contactIds)];
  const contacts = await trx
    .selectFrom('contacts')
    .select(['id', 'firstName', 'lastName', 'email', 'phone'])
    .where('userId', '=', tenantId)
    .where('id', 'in', ids)
    .execute();
  if (contacts.length !== ids.length) throw notFound('Contact not found');
  const existing = await trx
    .selectFrom('groupMembers')
    .select(['contactId', 'leftOn'])
    .where('userId', '=', tenantId)
    .where('groupId', '=', input.id)
    .execute();
  const current = new Set(existing.filter((e) => e.leftOn === null).map((e) => e.contactId));
  const joined = ids.filter((id) => !current.has(id));
  if (group.capacity !== null && current.size + joined.length > group.capacity)
    throw conflict(`This group is full: it takes ${group.capacity} people and has ${current.size}`, 'capacity');
  await sql`
    insert into group_members (user_id, group_id, contact_id, role)
    select ${tenantId}, ${input.id}, c, ${input.role} from unnest(${ids}::int[]) as c
    on conflict (group_id, contact_id) do update set role = excluded.role,
      joined_on = case when group_members.left_on is null then group_members.joined_on else current_date end,
      left_on = null`.execute(trx);
  const events: NewEvent[] = contacts
    .filter((c) => joined.includes(c.id))
    .map((c) => ({
      type: 'group.member_joined',
      contactId: c.id,
      payload: { person: personOf(c), group: { id: group.id, name: group.name }, role: input.role, via: opts.via },
    }));
  await recordEvents(trx, tenantId, events);
  return { joined };
}

/** Staff: add people (or change their role); answers the roster. */
export async function addGroupMembers(
  db: Db,
  tenantId: number,
  input: { id: number; contactIds: number[]; role: 'leader' | 'member' },
): Promise<GroupMember[]> {
  await db.transaction().execute((trx) => addMembers(trx, tenantId, input, { via: 'staff' }));
  return listMembers(db, tenantId, { id: input.id });
}

/** Marks current members as left today, in the caller's transaction, with a `group.member_left` each. */
export async function leaveGroup(
  trx: Db,
  tenantId: number,
  input: { id: number; contactIds: number[] },
  opts: { via: 'staff' | 'portal' | 'move' },
): Promise<number[]> {
  const group = await findChurchRow(trx, tenantId, {
    table: 'groups',
    id: input.id,
    missing: GROUP_MISSING,
    columns: ['id', 'name'],
  });
  const left = await trx
    .updateTable('groupMembers')
    .set({ leftOn: sql<string>`current_date` })
    .where('userId', '=', tenantId)
    .where('groupId', '=', input.id)
    .where('contactId', 'in', input.contactIds.length ? input.contactIds : [0])
    .where('leftOn', 'is', null)
    .returning('contactId')
    .execute();
  const people = left.length
    ? await trx
        .selectFrom('contacts')
        .select(['id', 'firstName', 'lastName', 'email', 'phone'])
        .where('userId', '=', tenantId)
        .where(
          'id',
          'in',
          left.map((l) => l.contactId),
        )
        .execute()
    : [];
  await recordEvents(
    trx,
    tenantId,
    people.map((c) => ({
      type: 'group.member_left' as const,
      contactId: c.id,
      payload: { person: personOf(c), group: { id: group.id, name: group.name }, via: opts.via },
    })),
  );
  return left.map((l) => l.contactId);
}

/** Staff: someone leaves the group (kept in its history). Someone not in it: 404. */
export async function removeGroupMember(
  db: Db,
  tenantId: number,
  input: { id: number; contactId: number },
): Promise<{ id: number }> {
  return db.transaction().execute(async (trx) => {
    const left = await leaveGroup(trx, tenantId, { id: input.id, contactIds: [input.contactId] }, { via: 'staff' });
    if (left.length === 0) throw notFound(MEMBER_MISSING);
    return { id: input.contactId };
  });
}

/** Moves (leaving this group) or copies current members to another group, keeping their role. */
export async function moveGroupMembers(
  db: Db,
  tenantId: number,
  input: { id: number; toGroupId: number; contactIds: number[]; mode: 'move' | 'copy' },
): Promise<{ toGroupId: number; added: number; left: number }> {
  if (input.toGroupId === input.id) throw badRequest('Choose another group to move people to', 'toGroupId');
  return db.transaction().execute(async (trx) => {
    await findChurchRow(trx, tenantId, { table: 'groups', id: input.id, missing: GROUP_MISSING, columns: ['id'] });
    const members = await trx
      .selectFrom('groupMembers')
      .select(['contactId', 'role'])
      .where('userId', '=', tenantId)
      .where('groupId', '=', input.id)
      .where('contactId', 'in', input.contactIds)
      .where('leftOn', 'is', null)
      .execute();
    const missing = input.contactIds.filter((c) => !members.some((m) => m.contactId === c));
    if (missing.length > 0) throw badRequest(`Contacts not in this group: ${missing.join(', ')}`, 'contactIds');
    let added = 0;
    for (const role of ['leader', 'member'] as const) {
      const contactIds = members.filter((m) => m.role === role).map((m) => m.contactId);
      if (contactIds.length === 0) continue;
      const r = await addMembers(trx, tenantId, { id: input.toGroupId, contactIds, role }, { via: 'move' });
      added += r.joined.length;
    }
    const left =
      input.mode === 'move'
        ? (await leaveGroup(trx, tenantId, { id: input.id, contactIds: input.contactIds }, { via: 'move' })).length
        : 0;
    return { toGroupId: input.toGroupId, added, left };
  });
}
