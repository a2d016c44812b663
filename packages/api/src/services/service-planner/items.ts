import { sql, type Db } from '@lampstand/db';
import { badRequest, notFound } from '../../errors.js';
import type { PlanItem } from '../../schemas/service-planner.js';
import { storeItemStartTimes } from './item-times.js';
import { getPlan } from './plans.js';
import { findChurchRow } from '../church-rows.js';

export interface ItemSongInput {
  songId: number;
  keySignature?: string | null;
  arrangement?: string | null;
  notes?: string | null;
}

export interface ItemFields {
  title: string;
  serviceItemTypeId?: number | null;
  description?: string | null;
  duration: number;
  notes?: string | null;
  isRehearsalNeeded: boolean;
  song?: ItemSongInput | null;
}

/** Lock the church's plan (serialises writes to its order); 404 for another church's plan. */
async function lockPlan(db: Db, tenantId: number, planId: number): Promise<void> {
  await findChurchRow(db, tenantId, {
    table: 'servicePlans',
    id: planId,
    columns: ['id'],
    forUpdate: true,
    missing: 'Service plan not found',
  });
}

async function assertType(db: Db, tenantId: number, typeId: number | null | undefined): Promise<void> {
  if (!typeId) return;
  const t = await db
    .selectFrom('serviceItemTypes')
    .select('id')
    .where('id', '=', typeId)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!t) throw badRequest('Item type not found', 'serviceItemTypeId');
}

/** Attach (or replace, or with null remove) the song of an item. */
async function setItemSong(
  db: Db,
  tenantId: number,
  o: { planId: number; itemId: number; song: ItemSongInput | null },
): Promise<void> {
  if (!o.song) {
    await db
      .deleteFrom('servicePlanSongs')
      .where('serviceItemId', '=', o.itemId)
      .where('userId', '=', tenantId)
      .execute();
    return;
  }
  const song = await db
    .selectFrom('songs')
    .select('id')
    .where('id', '=', o.song.songId)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!song) throw badRequest('Song not found', 'song.songId');
  const values = {
    songId: o.song.songId,
    keySignature: o.song.keySignature ?? null,
    arrangement: o.song.arrangement ?? null,
    notes: o.song.notes ?? null,
  };
  await db
    .insertInto('servicePlanSongs')
    .values({ userId: tenantId, servicePlanId: o.planId, serviceItemId: o.itemId, ...values })
    .onConflict((oc) => oc.column('serviceItemId').doUpdateSet(values))
    .execute();
}

async function itemOf(db: Db, tenantId: number, o: { planId: number; itemId: number }): Promise<PlanItem> {
  const plan = await getPlan(db, tenantId, { id: o.planId });
  const item = plan.items.find((i) => i.id === o.itemId);
  if (!item) throw notFound('Item not found');
  return item;
}

export async function createItem(db: Db, tenantId: number, input: ItemFields & { planId: number }): Promise<PlanItem> {
  const id = await db.transaction().execute(async (trx) => {
    await lockPlan(trx, tenantId, input.planId);
    await assertType(trx, tenantId, input.serviceItemTypeId);
    const row = await trx
      .insertInto('serviceItems')
      .values((eb) => ({
        userId: tenantId,
        servicePlanId: input.planId,
        serviceItemTypeId: input.serviceItemTypeId ?? null,
        title: input.title,
        description: input.description ?? null,
        duration: input.duration,
        notes: input.notes ?? null,
        isRehearsalNeeded: input.isRehearsalNeeded,
        position: eb
          .selectFrom('serviceItems')
          .select(sql<number>`coalesce(max(position), 0) + 1`.as('p'))
          .where('servicePlanId', '=', input.planId),
      }))
      .returning('id')
      .executeTakeFirstOrThrow();
    if (input.song) await setItemSong(trx, tenantId, { planId: input.planId, itemId: row.id, song: input.song });
    await touchPlan(trx, tenantId, input.planId);
    return row.id;
  });
  return itemOf(db, tenantId, { planId: input.planId, itemId: id });
}

async function touchPlan(db: Db, tenantId: number, planId: number) {
  await storeItemStartTimes(db, tenantId, { planId });
  await db
    .updateTable('servicePlans')
    .set({ updatedAt: new Date() })
    .where('id', '=', planId)
    .where('userId', '=', tenantId)
    .execute();
}

/** Partial: unsent fields keep their values; `song: null` removes the song. */
export async function updateItem(
  db: Db,
  tenantId: number,
  input: Partial<ItemFields> & { id: number },
): Promise<PlanItem> {
  const { id, song, ...fields } = input;
  const planId = await db.transaction().execute(async (trx) => {
    const item = await findChurchRow(trx, tenantId, {
      table: 'serviceItems',
      id,
      columns: ['id', 'servicePlanId'],
      forUpdate: true,
      missing: 'Item not found',
    });
    await assertType(trx, tenantId, fields.serviceItemTypeId);
    const set = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    await trx
      .updateTable('serviceItems')
      .set({ ...set, updatedAt: new Date() })
      .where('id', '=', id)
      .where('userId', '=', tenantId)
      .execute();
    if (song !== undefined) await setItemSong(trx, tenantId, { planId: item.servicePlanId, itemId: id, song });
    await touchPlan(trx, tenantId, item.servicePlanId);
    return item.servicePlanId;
  });
  return itemOf(db, tenantId, { planId, itemId: id });
}

export async function deleteItem(db: Db, tenantId: number, input: { id: number }): Promise<{ id: number }> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .deleteFrom('serviceItems')
      .where('id', '=', input.id)
      .where('userId', '=', tenantId)
      .returning(['id', 'servicePlanId'])
      .executeTakeFirst();
    if (!row) throw notFound('Item not found');
    await touchPlan(trx, tenantId, row.servicePlanId);
    return { id: row.id };
  });
}

/** The whole new order of a plan's items at once: every item of the plan exactly once. */
export async function reorderItems(
  db: Db,
  tenantId: number,
  input: { planId: number; itemIds: number[] },
): Promise<PlanItem[]> {
  await db.transaction().execute(async (trx) => {
    await lockPlan(trx, tenantId, input.planId);
    const current = await trx
      .selectFrom('serviceItems')
      .select('id')
      .where('servicePlanId', '=', input.planId)
      .where('userId', '=', tenantId)
      .execute();
    const ids = new Set(current.map((r) => r.id));
    if (ids.size !== input.itemIds.length || !input.itemIds.every((i) => ids.has(i))) {
      throw badRequest('The new order must list every item of the plan exactly once', 'itemIds');
    }
    await sql`
      update service_items set position = o.ord, updated_at = now()
      from unnest(${input.itemIds}::int[]) with ordinality as o(id, ord)
      where service_items.id = o.id and service_items.service_plan_id = ${input.planId}
        and service_items.user_id = ${tenantId}`.execute(trx);
    await touchPlan(trx, tenantId, input.planId);
  });
  return (await getPlan(db, tenantId, { id: input.planId })).items;
}
