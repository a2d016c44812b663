import { describe, expect, it } from 'vitest';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { takeRateSlot } from './rate-limit.js';

const { db } = await freshDatabase();

describe('takeRateSlot', () => {
  it('gives out at most perSecond slots a second, spread over its first 900 ms, to concurrent takers', async () => {
    const perSecond = 20;
    const slots: { second: number; offsetMs: number }[] = [];
    // Eight takers at once (as a worker's concurrent sends are), 50 slots in all: three seconds.
    let left = 50;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (left-- > 0) slots.push(await takeRateSlot(db, 'test-rate', perSecond));
      }),
    );
    expect(slots).toHaveLength(50);
    const bySecond = new Map<number, number[]>();
    for (const s of slots) bySecond.set(s.second, [...(bySecond.get(s.second) ?? []), s.offsetMs]);
    expect(bySecond.size).toBeGreaterThanOrEqual(3);
    for (const offsets of bySecond.values()) {
      expect(offsets.length).toBeLessThanOrEqual(perSecond);
      // One slot every 45 ms (900 ms / 20) from the start of the second: none in its last 100 ms,
      // left for the messages to arrive within the receiver's same second.
      expect(offsets.sort((a, b) => a - b)).toEqual(offsets.map((_, i) => i * 45));
    }
  });
});
