import type { Db } from '@lampstand/db';
import type { z } from 'zod';
import type { roomInputSchema, serviceInputSchema, Room } from '../../schemas/checkin/setup.js';
import { conflict, notFound } from '../../errors.js';

/** Services (the times check-in runs) and rooms (classes by age or grade), staff's set-up. */

export async function listServices(db: Db, tenantId: number) {
  const rows = await db
    .selectFrom('checkinServices')
    .select(['id', 'name', 'weekday', 'startsAt'])
    .where('userId', '=', tenantId)
    .orderBy('weekday')
    .orderBy('startsAt')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, startsAt: r.startsAt.slice(0, 5) }));
}

export async function createService(db: Db, tenantId: number, input: z.output<typeof serviceInputSchema>) {
  const r = await db
    .insertInto('checkinServices')
    .values({ userId: tenantId, ...input })
    .returning(['id', 'name', 'weekday', 'startsAt'])
    .executeTakeFirstOrThrow();
  return { ...r, startsAt: r.startsAt.slice(0, 5) };
}

export async function updateService(
  db: Db,
  tenantId: number,
  { id, ...input }: z.output<typeof serviceInputSchema> & { id: number },
) {
  const r = await db
    .updateTable('checkinServices')
    .set(input)
    .where('userId', '=', tenantId)
    .where('id', '=', id)
    .returning(['id', 'name', 'weekday', 'startsAt'])
    .executeTakeFirst();
  if (!r) throw notFound('Service not found');
  return { ...r, startsAt: r.startsAt.slice(0, 5) };
}

export async function deleteService(db: Db, tenantId: number, id: number) {
  const r = await db
    .deleteFrom('checkinServices')
    .where('userId', '=', tenantId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  if (!r) throw notFound('Service not found');
  return { id: r.id };
}

/** Rooms with their services and their closures from `fromDay` on (or all rooms open on `openOn`). */
export async function listRooms(db: Db, tenantId: number, opts: { fromDay: string; openOn?: string; ids?: number[] }) {
  let q = db
    .selectFrom('checkinRooms')
    .select(['id', 'name', 'ageMinMonths', 'ageMaxMonths', 'gradeMin', 'gradeMax', 'capacity'])
    .where('userId', '=', tenantId);
  if (opts.ids) q = q.where('id', 'in', opts.ids.length ? opts.ids : [0]);
  const rooms = await q.orderBy('name').orderBy('id').execute();
  if (rooms.length === 0) return [];
  const ids = rooms.map((r) => r.id);
  const [services, closures] = await Promise.all([
    db.selectFrom('checkinRoomServices').select(['roomId', 'serviceId']).where('roomId', 'in', ids).execute(),
    db
      .selectFrom('checkinRoomClosures')
      .select(['roomId', 'day'])
      .where('roomId', 'in', ids)
      .where('day', '>=', opts.fromDay)
      .orderBy('day')
      .execute(),
  ]);
  const out: Room[] = rooms.map((r) => ({
    ...r,
    serviceIds: services.filter((s) => s.roomId === r.id).map((s) => s.serviceId),
    closedOn: closures.filter((c) => c.roomId === r.id).map((c) => String(c.day)),
  }));
  return opts.openOn ? out.filter((r) => !r.closedOn.includes(opts.openOn!)) : out;
}

async function assertServices(db: Db, tenantId: number, serviceIds: number[]) {
  if (serviceIds.length === 0) return;
  const found = await db
    .selectFrom('checkinServices')
    .select('id')
    .where('userId', '=', tenantId)
    .where('id', 'in', serviceIds)
    .execute();
  if (found.length !== new Set(serviceIds).size) throw notFound('Service not found');
}

export async function saveRoom(
  db: Db,
  tenantId: number,
  { id, serviceIds, ...fields }: z.output<typeof roomInputSchema> & { id?: number },
  today: string,
): Promise<Room> {
  await assertServices(db, tenantId, serviceIds);
  const roomId = await db.transaction().execute(async (trx) => {
    let rid: number;
    if (id === undefined) {
      rid = (
        await trx
          .insertInto('checkinRooms')
          .values({ userId: tenantId, ...fields })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    } else {
      const r = await trx
        .updateTable('checkinRooms')
        .set({ ...fields, updatedAt: new Date() })
        .where('userId', '=', tenantId)
        .where('id', '=', id)
        .returning('id')
        .executeTakeFirst();
      if (!r) throw notFound('Room not found');
      rid = r.id;
      await trx.deleteFrom('checkinRoomServices').where('roomId', '=', rid).execute();
    }
    if (serviceIds.length)
      await trx
        .insertInto('checkinRoomServices')
        .values([...new Set(serviceIds)].map((serviceId) => ({ userId: tenantId, roomId: rid, serviceId })))
        .execute();
    return rid;
  });
  return (await listRooms(db, tenantId, { fromDay: today, ids: [roomId] }))[0]!;
}

/** Delete a room that never had a check-in (one with check-ins keeps its history: close it instead). */
export async function deleteRoom(db: Db, tenantId: number, id: number) {
  const used = await db
    .selectFrom('checkins')
    .select('id')
    .where('userId', '=', tenantId)
    .where('roomId', '=', id)
    .limit(1)
    .executeTakeFirst();
  if (used)
    throw conflict('This room has check-ins, so it is kept for its history: close it for the dates it does not meet');
  const r = await db
    .deleteFrom('checkinRooms')
    .where('userId', '=', tenantId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  if (!r) throw notFound('Room not found');
  return { id: r.id };
}

/** Close a room for a date, or open it again. */
export async function setRoomClosed(
  db: Db,
  tenantId: number,
  input: { id: number; date: string; closed: boolean },
  today: string,
): Promise<Room> {
  const exists = await listRooms(db, tenantId, { fromDay: today, ids: [input.id] });
  if (!exists[0]) throw notFound('Room not found');
  if (input.closed)
    await db
      .insertInto('checkinRoomClosures')
      .values({ userId: tenantId, roomId: input.id, day: input.date })
      .onConflict((oc) => oc.doNothing())
      .execute();
  else
    await db.deleteFrom('checkinRoomClosures').where('roomId', '=', input.id).where('day', '=', input.date).execute();
  return (await listRooms(db, tenantId, { fromDay: today, ids: [input.id] }))[0]!;
}
