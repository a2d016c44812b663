import { sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import type { childCareInputSchema, childCareSchema, rosterOutputSchema } from '../../schemas/checkin/checkins.js';
import { notFound } from '../../errors.js';
import { loadCheckins } from './records.js';
import { assertStationMay, type CheckinScope } from './scope.js';

/**
 * A room's roster, headcounts, and a child's care record (allergies, medical note, custody note,
 * the adults who may or may not pick them up). Medical and custody notes are read only here and on
 * labels, and each read is written to `checkin_note_reads`. The custody note is staff's only.
 */

/** Log reads of children's notes (one row per child and note). */
export async function logNoteReads(
  db: Db,
  scope: CheckinScope,
  reads: { childId: number; note: 'medical' | 'custody' }[],
  purpose: string,
): Promise<void> {
  if (reads.length === 0) return;
  await db
    .insertInto('checkinNoteReads')
    .values(
      reads.map((r) => ({
        userId: scope.tenantId,
        childId: r.childId,
        note: r.note,
        readerKind: scope.station ? 'station' : 'user',
        readerId: scope.station?.id ?? scope.userId,
        purpose,
      })),
    )
    .execute();
}

async function adultsOf(db: Db, tenantId: number, childIds: number[]) {
  if (childIds.length === 0) return [];
  return db
    .selectFrom('checkinChildAdults')
    .select(['childId', 'name', 'relationship', 'phone', 'authorised'])
    .where('userId', '=', tenantId)
    .where('childId', 'in', childIds)
    .orderBy('authorised', 'desc')
    .orderBy('id')
    .execute();
}

export async function roomRoster(
  db: Db,
  scope: CheckinScope,
  input: { id: number; day: string },
): Promise<z.input<typeof rosterOutputSchema>> {
  const { tenantId } = scope;
  assertStationMay(scope, 'roster', input.id);
  const room = await db
    .selectFrom('checkinRooms')
    .select(['id', 'name', 'capacity'])
    .where('userId', '=', tenantId)
    .where('id', '=', input.id)
    .executeTakeFirst();
  if (!room) throw notFound('Room not found');
  const checkins = await loadCheckins(db, tenantId, { day: input.day, roomId: room.id });
  const childIds = [...new Set(checkins.map((c) => c.childId))];
  const [notes, adults] = await Promise.all([
    childIds.length
      ? db
          .selectFrom('contactChildren')
          .select(['id', 'allergies', 'medicalNotes', 'custodyNote'])
          .where('userId', '=', tenantId)
          .where('id', 'in', childIds)
          .execute()
      : [],
    adultsOf(db, tenantId, childIds),
  ]);
  const byChild = new Map(notes.map((n) => [n.id, n]));
  const staff = scope.station === null;
  await logNoteReads(
    db,
    scope,
    notes.flatMap((n) => [
      ...(n.medicalNotes ? [{ childId: n.id, note: 'medical' as const }] : []),
      ...(staff && n.custodyNote ? [{ childId: n.id, note: 'custody' as const }] : []),
    ]),
    `roster of ${room.name}`,
  );
  return {
    date: input.day,
    room,
    children: checkins.map((c) => {
      const n = byChild.get(c.childId);
      return {
        checkinId: c.id,
        childId: c.childId,
        name: c.childName,
        familyName: c.familyName,
        securityCode: c.securityCode,
        checkedInAt: c.checkedInAt,
        checkedOutAt: c.checkedOutAt,
        allergies: n?.allergies ?? null,
        medicalNotes: n?.medicalNotes ?? null,
        adults: adults
          .filter((a) => a.childId === c.childId)
          .map(({ name, relationship, phone, authorised }) => ({ name, relationship, phone, authorised })),
        ...(staff ? { custodyNote: n?.custodyNote ?? null } : {}),
      };
    }),
  };
}

/**
 * Today's children not yet picked up, with their codes, allergies and pickup adults, for a station
 * to pick up without the network (the offline bundle): a room station's own room, a manned
 * station's or staff's every room, a self-service station none (parents at a kiosk never receive
 * another family's codes). No medical or custody notes: those are read online, where each read is logged.
 */
export async function presentForPickups(db: Db, scope: CheckinScope, day: string) {
  const s = scope.station;
  if (s?.kind === 'self' || (s?.kind === 'room' && s.roomId === null)) return [];
  const checkins = await loadCheckins(db, scope.tenantId, {
    day,
    present: true,
    ...(s?.kind === 'room' ? { roomId: s.roomId! } : {}),
  });
  const childIds = [...new Set(checkins.map((c) => c.childId))];
  const [allergies, adults] = await Promise.all([
    childIds.length
      ? db
          .selectFrom('contactChildren')
          .select(['id', 'allergies'])
          .where('userId', '=', scope.tenantId)
          .where('id', 'in', childIds)
          .execute()
      : [],
    adultsOf(db, scope.tenantId, childIds),
  ]);
  const allergiesOf = new Map(allergies.map((a) => [a.id, a.allergies]));
  return checkins.map((c) => ({
    checkinId: c.id,
    childId: c.childId,
    childName: c.childName,
    familyName: c.familyName,
    roomId: c.roomId,
    roomName: c.roomName,
    securityCode: c.securityCode,
    checkedInAt: c.checkedInAt,
    allergies: allergiesOf.get(c.childId) ?? null,
    adults: adults
      .filter((a) => a.childId === c.childId)
      .map(({ name, relationship, phone, authorised }) => ({ name, relationship, phone, authorised })),
  }));
}

export async function headcounts(db: Db, tenantId: number, day: string) {
  // Result columns arrive camelCased (the database handle's CamelCasePlugin).
  const rows = await sql<{
    roomId: number;
    roomName: string;
    capacity: number | null;
    serviceId: number | null;
    checkedIn: string;
    present: string;
  }>`
    select r.id as room_id, r.name as room_name, r.capacity, k.service_id,
      count(k.id) as checked_in, count(k.id) filter (where k.checked_out_at is null) as present
    from checkin_rooms r
    join checkins k on k.room_id = r.id and k.day = ${day} and k.user_id = ${tenantId}
    where r.user_id = ${tenantId}
    group by r.id, r.name, r.capacity, k.service_id
    order by r.name, r.id, k.service_id nulls first`.execute(db);
  return {
    date: day,
    rooms: rows.rows.map((r) => ({
      roomId: r.roomId,
      roomName: r.roomName,
      capacity: r.capacity,
      serviceId: r.serviceId,
      checkedIn: Number(r.checkedIn),
      present: Number(r.present),
    })),
  };
}

/** A child's care record (staff): reading it logs the reads of its notes. */
export async function getChildCare(
  db: Db,
  scope: CheckinScope,
  childId: number,
): Promise<z.input<typeof childCareSchema>> {
  const c = await db
    .selectFrom('contactChildren')
    .select(['id', 'name', 'grade', 'allergies', 'medicalNotes', 'custodyNote'])
    .where('userId', '=', scope.tenantId)
    .where('id', '=', childId)
    .executeTakeFirst();
  if (!c) throw notFound('Child not found');
  await logNoteReads(
    db,
    scope,
    [
      ...(c.medicalNotes ? [{ childId, note: 'medical' as const }] : []),
      ...(c.custodyNote ? [{ childId, note: 'custody' as const }] : []),
    ],
    'care record',
  );
  const adults = await adultsOf(db, scope.tenantId, [childId]);
  return { ...c, adults: adults.map(({ childId: _c, ...a }) => a) };
}

/** Update a child's care record (PATCH: unsent fields keep their values; `adults` replaces the list). */
export async function updateChildCare(db: Db, scope: CheckinScope, input: z.output<typeof childCareInputSchema>) {
  const { id, adults, ...fields } = input;
  await db.transaction().execute(async (trx) => {
    const set = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    const row = await trx
      .updateTable('contactChildren')
      .set({ ...set, updatedAt: new Date() })
      .where('userId', '=', scope.tenantId)
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
    if (!row) throw notFound('Child not found');
    if (adults) {
      await trx.deleteFrom('checkinChildAdults').where('childId', '=', id).execute();
      if (adults.length)
        await trx
          .insertInto('checkinChildAdults')
          .values(adults.map((a) => ({ userId: scope.tenantId, childId: id, ...a })))
          .execute();
    }
  });
  return getChildCare(db, scope, id);
}
