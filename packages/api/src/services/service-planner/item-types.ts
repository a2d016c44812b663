import { sql, type Db } from '@lampstand/db';
import { conflict, isUniqueViolation, notFound } from '../../errors.js';
import { DEFAULT_ITEM_TYPES, type ItemType } from '../../schemas/service-planner.js';
import { deleteChurchRow } from '../church-rows.js';

const COLUMNS = ['id', 'name', 'color', 'icon', 'description', 'isDefault'] as const;

/**
 * Give a church the default item types the first time it uses the planner (churches that existed
 * before the planner too). One statement: it inserts only while the church has no types at all,
 * and concurrent first requests meet the unique (user_id, name) and do nothing.
 */
export async function ensureItemTypes(db: Db, tenantId: number): Promise<void> {
  const names = DEFAULT_ITEM_TYPES.map((t) => t.name);
  const colors = DEFAULT_ITEM_TYPES.map((t) => t.color);
  const icons = DEFAULT_ITEM_TYPES.map((t) => t.icon);
  await sql`
    insert into service_item_types (user_id, name, color, icon, is_default)
    select ${tenantId}, d.name, d.color, d.icon, true
    from unnest(${names}::text[], ${colors}::text[], ${icons}::text[]) as d(name, color, icon)
    where not exists (select 1 from service_item_types where user_id = ${tenantId})
    on conflict (user_id, name) do nothing`.execute(db);
}

export async function listItemTypes(db: Db, tenantId: number): Promise<ItemType[]> {
  await ensureItemTypes(db, tenantId);
  return db
    .selectFrom('serviceItemTypes')
    .select(COLUMNS)
    .where('userId', '=', tenantId)
    .orderBy('isDefault', 'desc')
    .orderBy('id')
    .execute();
}

const DUPLICATE = 'An item type with this name already exists';

export async function createItemType(
  db: Db,
  tenantId: number,
  input: { name: string; color: string; icon: string; description?: string | null },
): Promise<ItemType> {
  await ensureItemTypes(db, tenantId);
  try {
    return await db
      .insertInto('serviceItemTypes')
      .values({
        userId: tenantId,
        name: input.name,
        color: input.color,
        icon: input.icon,
        description: input.description ?? null,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(DUPLICATE, 'name');
    throw err;
  }
}

export async function updateItemType(
  db: Db,
  tenantId: number,
  input: { id: number; name?: string; color?: string; icon?: string; description?: string | null },
): Promise<ItemType> {
  const { id, ...fields } = input;
  try {
    // `id = id` keeps the SET non-empty, so an empty PATCH answers the row unchanged (not a 500).
    const row = await db
      .updateTable('serviceItemTypes')
      .set({ ...fields, id })
      .where('id', '=', id)
      .where('userId', '=', tenantId)
      .returning(COLUMNS)
      .executeTakeFirst();
    if (!row) throw notFound('Item type not found');
    return row;
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(DUPLICATE, 'name');
    throw err;
  }
}

/** Items of this type keep their place and title; they just lose the type. */
export async function deleteItemType(db: Db, tenantId: number, input: { id: number }): Promise<{ id: number }> {
  return deleteChurchRow(db, tenantId, { table: 'serviceItemTypes', id: input.id, missing: 'Item type not found' });
}
