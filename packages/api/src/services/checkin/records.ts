import type { Db } from '@lampstand/db';
import type { CheckinOut } from '../../schemas/checkin/checkins.js';
import { personOf } from '../events/record.js';

/** Check-ins as the API returns them, with their names and code (one query). */
export async function loadCheckins(
  db: Db,
  tenantId: number,
  where: { ids?: number[]; day?: string; roomId?: number; present?: boolean; clientIds?: string[] },
): Promise<CheckinOut[]> {
  let q = db
    .selectFrom('checkins as k')
    .innerJoin('contactChildren as ch', 'ch.id', 'k.childId')
    .innerJoin('contacts as f', 'f.id', 'k.familyContactId')
    .innerJoin('checkinRooms as r', 'r.id', 'k.roomId')
    .innerJoin('checkinCodes as c', 'c.id', 'k.codeId')
    .select([
      'k.id',
      'k.day',
      'k.familyContactId',
      'f.firstName',
      'f.lastName',
      'f.email',
      'f.phone',
      'k.childId',
      'ch.name as childName',
      'k.roomId',
      'r.name as roomName',
      'k.serviceId',
      'c.code',
      'k.checkedInAt',
      'k.checkedOutAt',
      'k.ageOverride',
      'k.capacityOverride',
      'k.checkoutOverride',
    ])
    .where('k.userId', '=', tenantId);
  if (where.ids) q = q.where('k.id', 'in', where.ids.length ? where.ids : [0]);
  if (where.clientIds) q = q.where('k.clientId', 'in', where.clientIds.length ? where.clientIds : ['']);
  if (where.day) q = q.where('k.day', '=', where.day);
  if (where.roomId) q = q.where('k.roomId', '=', where.roomId);
  if (where.present === true) q = q.where('k.checkedOutAt', 'is', null);
  if (where.present === false) q = q.where('k.checkedOutAt', 'is not', null);
  const rows = await q.orderBy('k.checkedInAt').orderBy('k.id').limit(5000).execute();
  return rows.map((r) => ({
    id: r.id,
    date: String(r.day),
    familyId: r.familyContactId,
    familyName: personOf(r).name,
    childId: r.childId,
    childName: r.childName,
    roomId: r.roomId,
    roomName: r.roomName,
    serviceId: r.serviceId,
    securityCode: r.code,
    checkedInAt: r.checkedInAt,
    checkedOutAt: r.checkedOutAt,
    ageOverride: r.ageOverride,
    capacityOverride: r.capacityOverride,
    checkoutOverride: r.checkoutOverride,
  }));
}
