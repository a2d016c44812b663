import { describe, expect, it } from 'vitest';
import {
  awayWords,
  blocksDate,
  proposeSchedule,
  type Blockout,
  type ExistingAssignment,
  type ScheduleMember,
  type SchedulePlan,
} from './auto-schedule.js';

const SOUND = 1;
const VOCALS = 2;
/** Sundays from 2031-01-05 (a Sunday). */
const sundays = (n: number): SchedulePlan[] =>
  Array.from({ length: n }, (_, i) => ({
    id: 100 + i,
    date: new Date(Date.UTC(2031, 0, 5 + 7 * i)).toISOString().slice(0, 10),
    title: 'Sunday',
  }));
const member = (id: number, o: Partial<ScheduleMember> = {}): ScheduleMember => ({
  id,
  name: `M${id}`,
  isActive: true,
  positionIds: [SOUND],
  maxPerMonth: null,
  withHousehold: false,
  householdIds: [],
  ...o,
});
const base = { blockouts: [] as Blockout[], existing: [] as ExistingAssignment[] };

describe('blockouts', () => {
  it('covers a range, the nth weekday of each month, the last one, and every other week', () => {
    const range: Blockout = { memberId: 1, startsOn: '2031-05-12', endsOn: '2031-05-19', recurrence: null };
    expect(['2031-05-11', '2031-05-12', '2031-05-19', '2031-05-20'].map((d) => blocksDate(range, d))).toEqual([
      false,
      true,
      true,
      false,
    ]);
    const secondSunday: Blockout = {
      memberId: 1,
      startsOn: '2031-01-01',
      endsOn: '2031-12-31',
      recurrence: { every: 'month', nth: 2, weekday: 0 },
    };
    expect(['2031-01-05', '2031-01-12', '2031-01-19', '2031-02-09'].map((d) => blocksDate(secondSunday, d))).toEqual([
      false,
      true,
      false,
      true,
    ]);
    const lastSunday: Blockout = { ...secondSunday, recurrence: { every: 'month', nth: -1, weekday: 0 } };
    expect(['2031-01-19', '2031-01-26', '2031-03-30'].map((d) => blocksDate(lastSunday, d))).toEqual([
      false,
      true,
      true,
    ]);
    const fortnightly: Blockout = { ...secondSunday, recurrence: { every: 'weeks', interval: 2, weekday: 0 } };
    expect(['2031-01-05', '2031-01-12', '2031-01-19'].map((d) => blocksDate(fortnightly, d))).toEqual([
      true,
      false,
      true,
    ]);
    expect(awayWords('Maria', range)).toBe('Maria is away 12–19 May');
    expect(awayWords('Maria', { ...range, endsOn: '2031-06-02' })).toBe('Maria is away 12 May–2 Jun');
  });
});

describe('proposeSchedule', () => {
  it('rotates fairly: least recently scheduled first, then fewest this quarter', () => {
    const members = [member(1), member(2), member(3)];
    const { assignments } = proposeSchedule({ ...base, plans: sundays(6), positionIds: [SOUND], members });
    expect(assignments.map((a) => a.memberId)).toEqual([1, 2, 3, 1, 2, 3]);
    // Someone who served last week waits.
    const existing = [{ planId: 1, date: '2030-12-29', memberId: 1, positionId: SOUND }];
    const next = proposeSchedule({ ...base, existing, plans: sundays(2), positionIds: [SOUND], members });
    expect(next.assignments.map((a) => a.memberId)).toEqual([2, 3]);
  });

  it('takes only active qualified members, skips blockouts and the same day, keeps the monthly limit', () => {
    const members = [
      member(1, { isActive: false }),
      member(2, { positionIds: [VOCALS] }),
      member(3, { maxPerMonth: 1 }),
      member(4, { positionIds: [SOUND, VOCALS] }),
    ];
    const blockouts: Blockout[] = [{ memberId: 4, startsOn: '2031-01-12', endsOn: '2031-01-12', recurrence: null }];
    const { assignments, unfilled } = proposeSchedule({
      ...base,
      blockouts,
      plans: sundays(3),
      positionIds: [SOUND, VOCALS],
      members,
      positionNames: new Map([
        [SOUND, 'Sound'],
        [VOCALS, 'Vocals'],
      ]),
    });
    const at = (planId: number, positionId: number) =>
      assignments.find((a) => a.planId === planId && a.positionId === positionId)?.memberId;
    expect([at(100, SOUND), at(100, VOCALS)]).toEqual([3, 2]);
    // 12 Jan: 4 is away, 3 has served this month already.
    expect(at(101, SOUND)).toBeUndefined();
    expect(unfilled).toContainEqual({
      planId: 101,
      positionId: SOUND,
      reason: 'No one free: 1 blocked out, 1 at their monthly limit',
    });
    // 19 Jan: 4 does sound, so vocals go to 2 (4 cannot serve twice that day).
    expect([at(102, SOUND), at(102, VOCALS)]).toEqual([4, 2]);
    const none = proposeSchedule({ ...base, plans: sundays(1), positionIds: [99], members });
    expect(none.unfilled[0]!.reason).toBe('Nobody active is qualified for this position');
  });

  it('puts household members on the same plan when they asked to serve together', () => {
    const members = [
      member(1, { positionIds: [VOCALS] }),
      member(2, { positionIds: [SOUND] }),
      member(3, { positionIds: [SOUND], withHousehold: true, householdIds: [1] }),
    ];
    // Without the wish, rotation alone would choose 2 (lower id) for the first Sunday's sound.
    const { assignments } = proposeSchedule({ ...base, plans: sundays(1), positionIds: [VOCALS, SOUND], members });
    expect(assignments).toEqual([
      { planId: 100, positionId: VOCALS, memberId: 1 },
      { planId: 100, positionId: SOUND, memberId: 3 },
    ]);
  });

  it('property: no rule is ever broken, and equally available people serve within one time of each other', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const pick = (n: number) => Math.floor(random() * n);
    for (let run = 0; run < 300; run++) {
      const plans = sundays(4 + pick(12));
      const positions = [SOUND, VOCALS, 3].slice(0, 1 + pick(3));
      const slots = positions.flatMap((p) => (random() < 0.3 ? [p, p] : [p]));
      const members = Array.from({ length: 2 + pick(10) }, (_, i) =>
        member(i + 1, {
          isActive: random() > 0.1,
          positionIds: positions.filter(() => random() < 0.6),
          maxPerMonth: random() < 0.3 ? 1 + pick(3) : null,
        }),
      );
      const blockouts: Blockout[] = members.flatMap((m) =>
        random() < 0.4
          ? [
              {
                memberId: m.id,
                startsOn: plans[pick(plans.length)]!.date,
                endsOn: plans[pick(plans.length)]!.date,
                recurrence: null,
              },
            ]
          : [],
      );
      const { assignments, unfilled } = proposeSchedule({
        plans,
        positionIds: slots,
        members,
        blockouts,
        existing: [],
      });
      // Every slot is either filled or explained.
      expect(assignments.length + unfilled.length).toBe(plans.length * slots.length);
      const byId = new Map(members.map((m) => [m.id, m]));
      const dateOf = new Map(plans.map((p) => [p.id, p.date]));
      const seen = new Set<string>();
      const monthly = new Map<string, number>();
      for (const a of assignments) {
        const m = byId.get(a.memberId)!;
        const date = dateOf.get(a.planId)!;
        expect(m.isActive).toBe(true);
        expect(m.positionIds).toContain(a.positionId);
        expect(blockouts.some((b) => b.memberId === m.id && blocksDate(b, date))).toBe(false);
        expect(seen.has(`${m.id}:${date}`)).toBe(false);
        seen.add(`${m.id}:${date}`);
        const key = `${m.id}:${date.slice(0, 7)}`;
        monthly.set(key, (monthly.get(key) ?? 0) + 1);
        if (m.maxPerMonth !== null) expect(monthly.get(key)!).toBeLessThanOrEqual(m.maxPerMonth);
      }
      // Fairness among the equally available: active, no blockout, no limit, one position only.
      for (const position of positions) {
        const equal = members.filter(
          (m) =>
            m.isActive &&
            m.maxPerMonth === null &&
            m.positionIds.length === 1 &&
            m.positionIds[0] === position &&
            !blockouts.some((b) => b.memberId === m.id),
        );
        const counts = equal.map((m) => assignments.filter((a) => a.memberId === m.id).length);
        if (counts.length > 1) expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
      }
    }
  });
});
