import type { Db } from '@lampstand/db';
import { notFound } from '../../errors.js';
import { deleteChurchRow } from '../church-rows.js';

export interface ChildGroupFields {
  name: string;
  description?: string | null;
  ageMin?: number | null;
  ageMax?: number | null;
}

const out = (g: {
  id: number;
  userId: number;
  name: string;
  description: string | null;
  ageMin: number | null;
  ageMax: number | null;
  createdAt: Date;
  updatedAt: Date;
}) => ({
  ...g,
  createdAt: g.createdAt,
  updatedAt: g.updatedAt,
});

export async function listChildGroups(db: Db, tenantId: number) {
  const rows = await db
    .selectFrom('childGroups')
    .selectAll()
    .where('userId', '=', tenantId)
    .orderBy('ageMin')
    .orderBy('name')
    .execute();
  return rows.map(out);
}

export async function createChildGroup(db: Db, tenantId: number, input: ChildGroupFields) {
  const row = await db
    .insertInto('childGroups')
    .values({
      userId: tenantId,
      name: input.name,
      description: input.description ?? null,
      ageMin: input.ageMin ?? null,
      ageMax: input.ageMax ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return out(row);
}

export async function updateChildGroup(db: Db, tenantId: number, { id, ...input }: ChildGroupFields & { id: number }) {
  const row = await db
    .updateTable('childGroups')
    .set({
      name: input.name,
      description: input.description ?? null,
      ageMin: input.ageMin ?? null,
      ageMax: input.ageMax ?? null,
      updatedAt: new Date(),
    })
    .where('id', '=', id)
    .where('userId', '=', tenantId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound('Child group not found');
  return out(row);
}

/** Children in the group stay, without a group. */
export async function deleteChildGroup(db: Db, tenantId: number, id: number) {
  return deleteChurchRow(db, tenantId, { table: 'childGroups', id: id, missing: 'Child group not found' });
}
