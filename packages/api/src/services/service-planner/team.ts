import type { BlockoutRecurrence, Db } from '@lampstand/db';
import type { z } from 'zod';
import { badRequest, notFound } from '../../errors.js';
import type { churchBlockoutSchema, Position, memberSchema } from '../../schemas/service-planner.js';
import { assertChurchRow, deleteChurchRow } from '../church-rows.js';

// ---- Positions ----

const POSITION_COLUMNS = ['id', 'name', 'category', 'description'] as const;

export async function listPositions(db: Db, tenantId: number): Promise<Position[]> {
  return db
    .selectFrom('teamPositions')
    .select(POSITION_COLUMNS)
    .where('userId', '=', tenantId)
    .orderBy('category')
    .orderBy('name')
    .execute();
}

export async function createPosition(
  db: Db,
  tenantId: number,
  input: { name: string; category?: string | null; description?: string | null },
): Promise<Position> {
  return db
    .insertInto('teamPositions')
    .values({
      userId: tenantId,
      name: input.name,
      category: input.category ?? null,
      description: input.description ?? null,
    })
    .returning(POSITION_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function updatePosition(
  db: Db,
  tenantId: number,
  input: { id: number; name?: string; category?: string | null; description?: string | null },
): Promise<Position> {
  const { id, ...fields } = input;
  const set = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  // `id = id` keeps the SET non-empty, so an empty PATCH answers the row unchanged (not a 500).
  const row = await db
    .updateTable('teamPositions')
    .set({ ...set, id })
    .where('id', '=', id)
    .where('userId', '=', tenantId)
    .returning(POSITION_COLUMNS)
    .executeTakeFirst();
  if (!row) throw notFound('Position not found');
  return row;
}

export async function deletePosition(db: Db, tenantId: number, input: { id: number }): Promise<{ id: number }> {
  return deleteChurchRow(db, tenantId, { table: 'teamPositions', id: input.id, missing: 'Position not found' });
}

// ---- Members ----

export interface MemberFields {
  name: string;
  email?: string | null;
  phone?: string | null;
  notes?: string | null;
  isActive: boolean;
  contactId?: number | null;
  positionIds: number[];
  maxPerMonth?: number | null;
  scheduleWithHousehold?: boolean;
}

async function membersWhere(
  db: Db,
  tenantId: number,
  filter: { ids?: number[]; search?: string; activeOnly?: boolean },
) {
  let q = db
    .selectFrom('teamMembers')
    .select([
      'id',
      'contactId',
      'name',
      'email',
      'phone',
      'notes',
      'isActive',
      'maxPerMonth',
      'scheduleWithHousehold',
      'createdAt',
      'updatedAt',
    ])
    .where('userId', '=', tenantId);
  if (filter.ids) q = q.where('id', 'in', filter.ids.length ? filter.ids : [0]);
  if (filter.search?.trim()) {
    const like = `%${filter.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) => eb.or([eb('name', 'ilike', like), eb('email', 'ilike', like)]));
  }
  if (filter.activeOnly) q = q.where('isActive', '=', true);
  const rows = await q.orderBy('name').orderBy('id').limit(2000).execute();
  const ids = rows.map((r) => r.id);
  const [positions, blockouts] = ids.length
    ? await Promise.all([
        db
          .selectFrom('teamMemberPositions as mp')
          .innerJoin('teamPositions as p', 'p.id', 'mp.positionId')
          .select(['mp.teamMemberId', 'p.id', 'p.name', 'p.category', 'p.description'])
          .where('mp.teamMemberId', 'in', ids)
          .where('p.userId', '=', tenantId)
          .orderBy('p.name')
          .execute(),
        db
          .selectFrom('teamMemberBlockouts')
          .select(['id', 'teamMemberId', 'startsOn', 'endsOn', 'reason', 'recurrence'])
          .where('teamMemberId', 'in', ids)
          .where('userId', '=', tenantId)
          .orderBy('startsOn')
          .execute(),
      ])
    : [[], []];
  return rows.map((r): z.input<typeof memberSchema> => ({
    ...r,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    positions: positions
      .filter((p) => p.teamMemberId === r.id)
      .map((p) => ({ id: p.id, name: p.name, category: p.category, description: p.description })),
    blockouts: blockouts
      .filter((b) => b.teamMemberId === r.id)
      .map((b) => ({ id: b.id, startsOn: b.startsOn, endsOn: b.endsOn, reason: b.reason, recurrence: b.recurrence })),
  }));
}

export function listMembers(db: Db, tenantId: number, input: { search?: string; activeOnly?: boolean }) {
  return membersWhere(db, tenantId, input);
}

export async function getMember(
  db: Db,
  tenantId: number,
  input: { id: number },
): Promise<z.input<typeof memberSchema>> {
  const [m] = await membersWhere(db, tenantId, { ids: [input.id] });
  if (!m) throw notFound('Team member not found');
  return m;
}

async function setPositions(db: Db, tenantId: number, o: { memberId: number; positionIds: number[] }) {
  if (o.positionIds.length) {
    const found = await db
      .selectFrom('teamPositions')
      .select('id')
      .where('userId', '=', tenantId)
      .where('id', 'in', o.positionIds)
      .execute();
    if (found.length !== new Set(o.positionIds).size) throw badRequest('Position not found', 'positionIds');
  }
  await db.deleteFrom('teamMemberPositions').where('teamMemberId', '=', o.memberId).execute();
  if (o.positionIds.length)
    await db
      .insertInto('teamMemberPositions')
      .values([...new Set(o.positionIds)].map((positionId) => ({ teamMemberId: o.memberId, positionId })))
      .execute();
}

async function contactOf(db: Db, tenantId: number, contactId: number) {
  const c = await db
    .selectFrom('contacts')
    .select(['firstName', 'lastName', 'email', 'phone'])
    .where('id', '=', contactId)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!c) throw badRequest('Contact not found', 'contactId');
  return c;
}

/** A member linked to a contact takes the contact's name, email and phone where left empty. */
export async function createMember(
  db: Db,
  tenantId: number,
  input: MemberFields,
): Promise<z.input<typeof memberSchema>> {
  const id = await db.transaction().execute(async (trx) => {
    const contact = input.contactId ? await contactOf(trx, tenantId, input.contactId) : null;
    const row = await trx
      .insertInto('teamMembers')
      .values({
        userId: tenantId,
        contactId: input.contactId ?? null,
        name: input.name.trim() || `${contact?.firstName ?? ''} ${contact?.lastName ?? ''}`.trim(),
        email: input.email ?? contact?.email ?? null,
        phone: input.phone ?? contact?.phone ?? null,
        notes: input.notes ?? null,
        isActive: input.isActive,
        maxPerMonth: input.maxPerMonth ?? null,
        scheduleWithHousehold: input.scheduleWithHousehold ?? false,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await setPositions(trx, tenantId, { memberId: row.id, positionIds: input.positionIds });
    return row.id;
  });
  return getMember(db, tenantId, { id });
}

/** Partial: unsent fields keep their values; `positionIds` replaces the member's positions. */
export async function updateMember(
  db: Db,
  tenantId: number,
  input: Partial<MemberFields> & { id: number },
): Promise<z.input<typeof memberSchema>> {
  const { id, positionIds, ...fields } = input;
  await db.transaction().execute(async (trx) => {
    if (fields.contactId) await contactOf(trx, tenantId, fields.contactId);
    const set = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    const row = await trx
      .updateTable('teamMembers')
      .set({ ...set, updatedAt: new Date() })
      .where('id', '=', id)
      .where('userId', '=', tenantId)
      .returning('id')
      .executeTakeFirst();
    if (!row) throw notFound('Team member not found');
    if (positionIds) await setPositions(trx, tenantId, { memberId: id, positionIds });
  });
  return getMember(db, tenantId, { id });
}

export async function deleteMember(db: Db, tenantId: number, input: { id: number }): Promise<{ id: number }> {
  return deleteChurchRow(db, tenantId, { table: 'teamMembers', id: input.id, missing: 'Team member not found' });
}

// ---- Blockout dates ----

export async function addBlockout(
  db: Db,
  tenantId: number,
  input: {
    memberId: number;
    startsOn: string;
    endsOn: string;
    reason?: string | null;
    recurrence?: BlockoutRecurrence | null;
  },
): Promise<z.input<typeof memberSchema>> {
  await assertChurchRow(db, tenantId, { table: 'teamMembers', id: input.memberId, missing: 'Team member not found' });
  await db
    .insertInto('teamMemberBlockouts')
    .values({
      userId: tenantId,
      teamMemberId: input.memberId,
      startsOn: input.startsOn,
      endsOn: input.endsOn,
      reason: input.reason ?? null,
      recurrence: input.recurrence ? JSON.stringify(input.recurrence) : null,
    })
    .execute();
  return getMember(db, tenantId, { id: input.memberId });
}

export async function deleteBlockout(
  db: Db,
  tenantId: number,
  input: { id: number },
): Promise<z.input<typeof memberSchema>> {
  const row = await db
    .deleteFrom('teamMemberBlockouts')
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .returning('teamMemberId')
    .executeTakeFirst();
  if (!row) throw notFound('Blockout not found');
  return getMember(db, tenantId, { id: row.teamMemberId });
}

/** Every blockout of the church's members (overlapping from–to when given), soonest first. */
export async function listBlockouts(
  db: Db,
  tenantId: number,
  input: { from?: string; to?: string },
): Promise<z.input<typeof churchBlockoutSchema>[]> {
  let q = db
    .selectFrom('teamMemberBlockouts as b')
    .innerJoin('teamMembers as m', 'm.id', 'b.teamMemberId')
    .select(['b.id', 'b.startsOn', 'b.endsOn', 'b.reason', 'b.recurrence', 'm.id as memberId', 'm.name as memberName'])
    .where('b.userId', '=', tenantId)
    .where('m.userId', '=', tenantId);
  if (input.from) q = q.where('b.endsOn', '>=', input.from);
  if (input.to) q = q.where('b.startsOn', '<=', input.to);
  const rows = await q.orderBy('b.startsOn').orderBy('b.id').limit(5000).execute();
  return rows.map(({ memberId, memberName, ...b }) => ({ ...b, member: { id: memberId, name: memberName } }));
}
