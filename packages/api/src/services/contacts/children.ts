import { sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import { type childSchema } from '../../schemas/contacts.js';
import { ageFromDateOfBirth } from '../../shared/contacts.js';
import { badRequest, notFound } from '../../errors.js';
import { sentFields } from './contacts.js';
import { assertChurchRow, deleteChurchRow, findChurchRow } from '../church-rows.js';

export interface ChildFields {
  name: string;
  dateOfBirth?: string | null;
  age?: number | null;
  groupId?: number | null;
  notes?: string | null;
}

async function assertGroup(db: Db, tenantId: number, groupId: number | null | undefined) {
  if (!groupId) return;
  await assertChurchRow(db, tenantId, { table: 'childGroups', id: groupId, missing: 'Child group not found' });
}

async function loadChildren(
  db: Db,
  tenantId: number,
  where: { parentContactId?: number; childId?: number },
): Promise<z.input<typeof childSchema>[]> {
  let q = db
    .selectFrom('contactChildren as c')
    .leftJoin('childGroups as g', (j) => j.onRef('g.id', '=', 'c.groupId').onRef('g.userId', '=', 'c.userId'))
    .select([
      'c.id',
      'c.parentContactId',
      'c.name',
      'c.dateOfBirth',
      'c.age',
      'c.groupId',
      'c.notes',
      'c.createdAt',
      'c.updatedAt',
      'g.name as groupName',
      'g.ageMin as groupAgeMin',
      'g.ageMax as groupAgeMax',
    ])
    .select(
      sql<
        number[]
      >`coalesce((select array_agg(cl.list_id order by cl.list_id) from children_in_lists cl where cl.child_id = c.id), '{}')`.as(
        'listIds',
      ),
    )
    .where('c.userId', '=', tenantId);
  if (where.parentContactId) q = q.where('c.parentContactId', '=', where.parentContactId);
  if (where.childId) q = q.where('c.id', '=', where.childId);
  const rows = await q.orderBy('c.createdAt').orderBy('c.id').execute();
  return rows.map((r) => ({
    id: r.id,
    parentContactId: r.parentContactId,
    name: r.name,
    dateOfBirth: r.dateOfBirth,
    // A typed age is wrong a year later: with a date of birth, the age is worked out today.
    age: (r.dateOfBirth ? ageFromDateOfBirth(r.dateOfBirth) : null) ?? r.age,
    groupId: r.groupId,
    group:
      r.groupId && r.groupName
        ? { id: r.groupId, name: r.groupName, ageMin: r.groupAgeMin, ageMax: r.groupAgeMax }
        : null,
    notes: r.notes,
    listIds: (r.listIds ?? []).map(Number),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }));
}

export async function listChildren(
  db: Db,
  tenantId: number,
  parentContactId: number,
): Promise<z.input<typeof childSchema>[]> {
  await assertChurchRow(db, tenantId, { table: 'contacts', id: parentContactId, missing: 'Contact not found' });
  return loadChildren(db, tenantId, { parentContactId });
}

async function getChild(db: Db, tenantId: number, childId: number): Promise<z.input<typeof childSchema>> {
  const [child] = await loadChildren(db, tenantId, { childId });
  if (!child) throw notFound('Child not found');
  return child;
}

export async function addChild(
  db: Db,
  tenantId: number,
  { parentContactId, ...input }: ChildFields & { parentContactId: number },
): Promise<z.input<typeof childSchema>> {
  await assertChurchRow(db, tenantId, { table: 'contacts', id: parentContactId, missing: 'Contact not found' });
  await assertGroup(db, tenantId, input.groupId);
  const row = await db
    .insertInto('contactChildren')
    .values({
      userId: tenantId,
      parentContactId,
      name: input.name,
      dateOfBirth: input.dateOfBirth ?? null,
      age: input.age ?? null,
      groupId: input.groupId ?? null,
      notes: input.notes ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return getChild(db, tenantId, row.id);
}

/** PATCH a child: only the fields sent (not undefined) change. */
export async function updateChild(
  db: Db,
  tenantId: number,
  input: Partial<ChildFields> & { childId: number },
): Promise<z.input<typeof childSchema>> {
  const { childId, ...fields } = input;
  await assertGroup(db, tenantId, fields.groupId);
  const row = await db
    .updateTable('contactChildren')
    .set({ ...sentFields(fields), updatedAt: new Date() })
    .where('id', '=', childId)
    .where('userId', '=', tenantId)
    .returning('id')
    .executeTakeFirst();
  if (!row) throw notFound('Child not found');
  return getChild(db, tenantId, childId);
}

export async function removeChild(db: Db, tenantId: number, childId: number) {
  return deleteChurchRow(db, tenantId, { table: 'contactChildren', id: childId, missing: 'Child not found' });
}

/**
 * Put a child on an SMS-capable list (type sms or both). Messages sent to the list reach the
 * child through their parent contact's phone.
 */
export async function addChildToList(
  db: Db,
  tenantId: number,
  { childId, listId }: { childId: number; listId: number },
) {
  await assertChurchRow(db, tenantId, { table: 'contactChildren', id: childId, missing: 'Child not found' });
  const list = await findChurchRow(db, tenantId, {
    table: 'contactLists',
    id: listId,
    columns: ['id', 'type'],
    missing: 'List not found',
  });
  if (list.type === 'email') throw badRequest('Children can only be added to lists of type SMS or both');
  await db
    .insertInto('childrenInLists')
    .values({ userId: tenantId, childId, listId })
    .onConflict((oc) => oc.columns(['listId', 'childId']).doNothing())
    .execute();
  return { childId, listId };
}
