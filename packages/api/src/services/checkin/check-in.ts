import { sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import type { checkInInputSchema, CheckinOut } from '../../schemas/checkin/checkins.js';
import type { Room } from '../../schemas/checkin/setup.js';
import { AppError, badRequest, conflict, isUniqueViolation, notFound } from '../../errors.js';
import { peopleOf, recordEvents } from '../events/record.js';
import { allocateCode } from './codes.js';
import { ageInMonths, fitsRoom } from '../../shared/checkin-rooms.js';
import { listRooms } from './rooms.js';
import { loadCheckins } from './records.js';
import { inTransaction, type CheckinScope } from './scope.js';

type CheckInInput = z.output<typeof checkInInputSchema>;

/** How a check-in is recorded: online (a new code) or from a station's offline batch (its own code and times). */
export interface CheckInHow {
  day: string;
  /** The code an offline station gave (already claimed from its block); otherwise a new one is drawn. */
  code?: { id: number; code: string };
  /** The station's ids of each child's offline check-in, by child id. */
  clientIds?: Map<number, string>;
  at?: Date;
}

function ageRange(room: Room): string {
  if (room.gradeMin !== null || room.gradeMax !== null) {
    const g = (n: number | null) => (n === null ? '' : n === -1 ? 'pre-K' : n === 0 ? 'K' : String(n));
    return `grades ${g(room.gradeMin)}–${g(room.gradeMax)}`;
  }
  return `${room.ageMinMonths ?? 0}–${room.ageMaxMonths ?? '…'} months`;
}

/** The worded refusal of a child outside a room's range: too young, too old, or no birth date/grade. */
function notFitting(
  room: Room,
  child: { name: string; dateOfBirth: string | null; grade: number | null },
  day: string,
) {
  const byGrade = room.gradeMin !== null || room.gradeMax !== null;
  let why: string;
  if (byGrade) {
    if (child.grade === null) why = `${child.name} has no school grade on record for ${room.name}`;
    else why = `${child.name} is ${child.grade < (room.gradeMin ?? -1) ? 'too young' : 'too old'} for ${room.name}`;
  } else if (!child.dateOfBirth) why = `${child.name} has no birth date on record for ${room.name}`;
  else
    why = `${child.name} is ${ageInMonths(child.dateOfBirth, day) < (room.ageMinMonths ?? 0) ? 'too young' : 'too old'} for ${room.name}`;
  return `${why} (${ageRange(room)}): choose another room, or check in with an override`;
}

/**
 * Check a family's children in, each to a room, with one security code for the family. A child
 * outside a room's ages or grades is refused unless `ageOverride`; a room at capacity is refused
 * (409) unless the station confirmed (`confirmOverCapacity`). One transaction: the rooms are locked
 * while counted, so two stations cannot both fill the last place.
 */
export async function checkIn(
  db: Db,
  scope: CheckinScope,
  input: CheckInInput & { confirmOverCapacity: boolean },
  how: CheckInHow,
): Promise<{ securityCode: string; checkins: CheckinOut[] }> {
  const { tenantId } = scope;
  const { day } = how;
  const childIds = input.children.map((c) => c.childId);
  if (new Set(childIds).size !== childIds.length) throw badRequest('Each child is checked in once', 'children');
  const ids = await inTransaction(db, async (trx) => {
    const family = await trx
      .selectFrom('contacts')
      .select(['id'])
      .where('userId', '=', tenantId)
      .where('id', '=', input.familyId)
      .executeTakeFirst();
    if (!family) throw notFound('Family not found');
    const spouses = await trx
      .selectFrom('contactFamilyLinks')
      .select(['contact1Id', 'contact2Id'])
      .where('userId', '=', tenantId)
      .where('relationship', '=', 'spouse')
      .where((eb) => eb.or([eb('contact1Id', '=', family.id), eb('contact2Id', '=', family.id)]))
      .execute();
    const parents = [family.id, ...spouses.map((l) => (l.contact1Id === family.id ? l.contact2Id : l.contact1Id))];
    const children = await trx
      .selectFrom('contactChildren')
      .select(['id', 'name', 'dateOfBirth', 'grade', 'parentContactId'])
      .where('userId', '=', tenantId)
      .where('id', 'in', childIds)
      .where('parentContactId', 'in', parents)
      .execute();
    if (children.length !== childIds.length) throw notFound('Child not found');
    const childOf = (id: number) => children.find((k) => k.id === id)!;
    const service =
      input.serviceId === null
        ? null
        : await trx
            .selectFrom('checkinServices')
            .select(['id', 'name'])
            .where('userId', '=', tenantId)
            .where('id', '=', input.serviceId)
            .executeTakeFirst();
    if (service === undefined) throw notFound('Service not found');
    const roomIds = [...new Set(input.children.map((c) => c.roomId))];
    // Locked while counted: a concurrent check-in into the same room waits for this one.
    await sql`select id from checkin_rooms where user_id = ${tenantId} and id in (${sql.join(roomIds)}) order by id for update`.execute(
      trx,
    );
    const rooms = await listRooms(trx, tenantId, { fromDay: day, ids: roomIds });
    if (rooms.length !== roomIds.length) throw notFound('Room not found');
    const byRoom = new Map(rooms.map((r) => [r.id, r]));
    input.children.forEach((c, i) => {
      const room = byRoom.get(c.roomId)!;
      const child = childOf(c.childId);
      if (room.closedOn.includes(day)) throw badRequest(`${room.name} is closed today`, `children.${i}.roomId`);
      if (input.serviceId !== null && room.serviceIds.length > 0 && !room.serviceIds.includes(input.serviceId))
        throw badRequest(`${room.name} does not meet at this service`, `children.${i}.roomId`);
      if (!c.ageOverride && !fitsRoom(room, child, day))
        throw badRequest(notFitting(room, child, day), `children.${i}.roomId`);
    });
    const over: string[] = [];
    const overRooms = new Set<number>();
    for (const room of rooms) {
      if (room.capacity === null) continue;
      const adding = input.children.filter((c) => c.roomId === room.id).length;
      const present = await trx
        .selectFrom('checkins')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('userId', '=', tenantId)
        .where('day', '=', day)
        .where('roomId', '=', room.id)
        .where('checkedOutAt', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(present.n) + adding > room.capacity) {
        over.push(`${room.name} (${present.n} of ${room.capacity})`);
        overRooms.add(room.id);
      }
    }
    if (over.length && !input.confirmOverCapacity)
      throw new AppError(
        'CONFLICT',
        `Over capacity: ${over.join(', ')}. Confirm to check in anyway`,
        'confirmOverCapacity',
      );
    const code = how.code ?? (await allocateCode(trx, tenantId, { day, state: 'active' }));
    const firstTime = !(await trx
      .selectFrom('checkins')
      .select('id')
      .where('userId', '=', tenantId)
      .where('familyContactId', '=', family.id)
      .executeTakeFirst());
    let inserted: { id: number; childId: number; roomId: number; ageOverride: boolean; capacityOverride: boolean }[];
    try {
      inserted = await trx
        .insertInto('checkins')
        .values(
          input.children.map((c) => ({
            userId: tenantId,
            clientId: how.clientIds?.get(c.childId) ?? null,
            day,
            familyContactId: family.id,
            childId: c.childId,
            roomId: c.roomId,
            serviceId: input.serviceId,
            codeId: code.id,
            checkedInAt: how.at ?? scope.now,
            checkedInByUser: scope.userId,
            checkedInByStation: scope.station?.id ?? null,
            // Recorded only where it was needed: a child who fits the room was not an exception.
            ageOverride: c.ageOverride && !fitsRoom(byRoom.get(c.roomId)!, childOf(c.childId), day),
            capacityOverride: overRooms.has(c.roomId),
          })),
        )
        .returning(['id', 'childId', 'roomId', 'ageOverride', 'capacityOverride'])
        .execute();
    } catch (err) {
      if (isUniqueViolation(err, 'checkins_child_present_key'))
        throw conflict('A child of this family is already checked in and not yet picked up', 'children');
      throw err;
    }
    const people = await peopleOf(trx, tenantId, [family.id]);
    await recordEvents(
      trx,
      tenantId,
      inserted.map((k) => ({
        type: 'checkin.checked_in' as const,
        contactId: family.id,
        payload: {
          person: people.get(family.id),
          checkinId: k.id,
          date: day,
          child: { id: k.childId, name: childOf(k.childId).name },
          room: { id: k.roomId, name: byRoom.get(k.roomId)!.name },
          service,
          station: scope.station ? { id: scope.station.id, name: scope.station.name } : null,
          firstTime,
          offline: how.code !== undefined,
          overrides: [
            ...(k.ageOverride ? (['age'] as const) : []),
            ...(k.capacityOverride ? (['capacity'] as const) : []),
          ],
        },
      })),
      scope.station ? { actor: { kind: 'station', id: scope.station.id } } : {},
    );
    return { ids: inserted.map((k) => k.id), code: code.code };
  });
  return { securityCode: ids.code, checkins: await loadCheckins(db, tenantId, { ids: ids.ids }) };
}
