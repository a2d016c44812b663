import type { Room } from '../schemas/checkin/setup.js';

/**
 * Which room a child belongs in, by age in months or school grade: the server's lookup and check-in
 * use these, and an offline station can choose rooms with the same ones.
 */

/** A child's age in whole months on `day` ('YYYY-MM-DD'). */
export function ageInMonths(dateOfBirth: string, day: string): number {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return (y - by) * 12 + (m - bm) - (d < bd ? 1 : 0);
}

/** Whether a child fits a room: its age (months) or grade in the room's range; a room without a range fits all. */
export function fitsRoom(
  room: Pick<Room, 'ageMinMonths' | 'ageMaxMonths' | 'gradeMin' | 'gradeMax'>,
  child: { dateOfBirth: string | null; grade: number | null },
  day: string,
): boolean {
  const byAge = room.ageMinMonths !== null || room.ageMaxMonths !== null;
  const byGrade = room.gradeMin !== null || room.gradeMax !== null;
  if (byAge) {
    if (!child.dateOfBirth) return false;
    const age = ageInMonths(child.dateOfBirth, day);
    return (
      (room.ageMinMonths === null || age >= room.ageMinMonths) &&
      (room.ageMaxMonths === null || age <= room.ageMaxMonths)
    );
  }
  if (byGrade) {
    if (child.grade === null) return false;
    return (
      (room.gradeMin === null || child.grade >= room.gradeMin) &&
      (room.gradeMax === null || child.grade <= room.gradeMax)
    );
  }
  return true;
}

/** The room a child belongs in at a service: the open room that fits, the narrowest first. */
export function chooseRoom(
  rooms: Room[],
  child: { dateOfBirth: string | null; grade: number | null },
  day: string,
  serviceId: number | null,
): Room | null {
  const fits = rooms.filter(
    (r) =>
      (serviceId === null || r.serviceIds.length === 0 || r.serviceIds.includes(serviceId)) &&
      (r.ageMinMonths !== null || r.ageMaxMonths !== null || r.gradeMin !== null || r.gradeMax !== null) &&
      fitsRoom(r, child, day),
  );
  const span = (r: Room) =>
    r.ageMinMonths !== null || r.ageMaxMonths !== null
      ? (r.ageMaxMonths ?? 300) - (r.ageMinMonths ?? 0)
      : ((r.gradeMax ?? 12) - (r.gradeMin ?? -1)) * 12;
  return fits.sort((a, b) => span(a) - span(b) || a.id - b.id)[0] ?? null;
}
