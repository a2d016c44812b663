import { describe, expect, it } from 'vitest';
import { createPlanSchema, createSongSchema } from './service-planner.js';
import { computeItemTimes, hhmmOf, minutesOf } from '../shared/service-planner.js';

describe('computeItemTimes', () => {
  it('starts each item where the one before ended', () => {
    const t = computeItemTimes({ startTime: '09:30', endTime: '10:30' }, [
      { duration: 5 },
      { duration: 20 },
      { duration: 0 },
      { duration: 30 },
    ]);
    expect(t.starts).toEqual(['09:30', '09:35', '09:55', '09:55']);
    expect(t).toMatchObject({ totalMinutes: 55, endsAt: '10:25', plannedMinutes: 60, overBy: 0 });
  });

  it('says how far over the planned end it runs', () => {
    const t = computeItemTimes({ startTime: '10:00', endTime: '11:00' }, [{ duration: 45 }, { duration: 25 }]);
    expect(t).toMatchObject({ totalMinutes: 70, endsAt: '11:10', plannedMinutes: 60, overBy: 10 });
  });

  it('has no times without a start, and no plan length without an end', () => {
    const none = computeItemTimes({ startTime: null, endTime: '11:00' }, [{ duration: 5 }, { duration: 5 }]);
    expect(none).toMatchObject({
      starts: [null, null],
      totalMinutes: 10,
      endsAt: null,
      plannedMinutes: null,
      overBy: 0,
    });
    const open = computeItemTimes({ startTime: '18:00', endTime: null }, [{ duration: 90 }]);
    expect(open).toMatchObject({ starts: ['18:00'], endsAt: '19:30', plannedMinutes: null, overBy: 0 });
    expect(computeItemTimes({ startTime: '10:00', endTime: '11:00' }, [])).toMatchObject({
      starts: [],
      totalMinutes: 0,
      endsAt: '10:00',
    });
  });

  it('wraps past midnight', () => {
    expect(computeItemTimes({ startTime: '23:30', endTime: null }, [{ duration: 45 }, { duration: 1 }]).starts).toEqual(
      ['23:30', '00:15'],
    );
    expect(hhmmOf(minutesOf('23:59') + 2)).toBe('00:01');
  });
});

describe('validation messages', () => {
  it('plans: title required, HH:MM, end after start', () => {
    const r = createPlanSchema.safeParse({ title: '', date: '2030-01-01', startTime: '10:00', endTime: '10:00' });
    expect(r.success).toBe(false);
    const messages = r.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(messages).toContain('title: Title is required');
    expect(
      createPlanSchema.safeParse({ title: 'x', date: '2030-01-01', startTime: '25:00' }).error!.issues[0]!.message,
    ).toBe('Start time must be a time as HH:MM');
    expect(
      createPlanSchema.safeParse({ title: 'x', date: '2030-01-01', startTime: '10:00', endTime: '10:00' }).error!
        .issues[0]!.message,
    ).toBe('End time must be after the start time');
    expect(createPlanSchema.safeParse({ title: 'x', date: '2030-01-01', startTime: '', endTime: '' }).success).toBe(
      true,
    );
  });

  it('songs: tempo 20 to 300 and a valid key', () => {
    expect(createSongSchema.safeParse({ title: 'x', tempo: 300, keySignature: 'F#m' }).success).toBe(true);
    expect(createSongSchema.safeParse({ title: 'x', tempo: '' }).success).toBe(true);
    expect(createSongSchema.safeParse({ title: 'x', tempo: 301 }).error!.issues[0]!.message).toBe(
      'Tempo must be between 20 and 300',
    );
    expect(createSongSchema.safeParse({ title: 'x', keySignature: 'H' }).error!.issues[0]!.message).toBe(
      'Key must be a valid key, e.g. G, Bb or F#m',
    );
  });
});
