import { describe, expect, it } from 'vitest';
import type { Room } from '../schemas/checkin/setup.js';
import { ageInMonths, chooseRoom, fitsRoom } from './checkin-rooms.js';

const room = (id: number, r: Partial<Room>): Room => ({
  id,
  name: `Room ${id}`,
  ageMinMonths: null,
  ageMaxMonths: null,
  gradeMin: null,
  gradeMax: null,
  capacity: null,
  serviceIds: [],
  closedOn: [],
  ...r,
});

describe('choosing a room', () => {
  it('counts whole months, a month turning on the day of the birth date', () => {
    expect(ageInMonths('2024-03-15', '2026-03-14')).toBe(23);
    expect(ageInMonths('2024-03-15', '2026-03-15')).toBe(24);
  });

  it('fits by age or grade; a child without a birth date or grade fits no such room', () => {
    const nursery = room(1, { ageMinMonths: 0, ageMaxMonths: 24 });
    expect(fitsRoom(nursery, { dateOfBirth: '2025-12-01', grade: null }, '2026-12-06')).toBe(true);
    expect(fitsRoom(nursery, { dateOfBirth: '2020-12-01', grade: null }, '2026-12-06')).toBe(false);
    expect(fitsRoom(nursery, { dateOfBirth: null, grade: 1 }, '2026-12-06')).toBe(false);
    expect(fitsRoom(room(2, { gradeMin: 0, gradeMax: 2 }), { dateOfBirth: null, grade: 0 }, '2026-12-06')).toBe(true);
  });

  it('takes the narrowest room that fits and meets at the service', () => {
    const wide = room(1, { ageMinMonths: 0, ageMaxMonths: 72 });
    const narrow = room(2, { ageMinMonths: 0, ageMaxMonths: 24, serviceIds: [7] });
    const baby = { dateOfBirth: '2026-01-01', grade: null };
    expect(chooseRoom([wide, narrow], baby, '2026-12-06', 7)?.id).toBe(2);
    expect(chooseRoom([wide, narrow], baby, '2026-12-06', 8)?.id).toBe(1);
    expect(chooseRoom([wide], { dateOfBirth: '2010-01-01', grade: null }, '2026-12-06', null)).toBeNull();
  });
});
