import { describe, expect, it } from 'vitest';
import { Pacer } from './pacer.js';
import { machineCpuTimes, type CpuTimes } from './cpu-times.js';

/** A machine whose cores' busy share the test sets for each interval, and a clock the test moves. */
function fakeMachine() {
  const state = { busy: 0, total: 0, now: 0, slept: [] as number[] };
  const cpu = (): CpuTimes => ({ busy: state.busy, total: state.total });
  const now = () => state.now;
  /** Sleeping moves the clock (the test runs one unit at a time). */
  const sleep = (ms: number) => {
    state.slept.push(ms);
    state.now += ms;
    return Promise.resolve();
  };
  return {
    state,
    /** A pacer aiming at 70% of this machine, adjusted when the test says. */
    pacer: () => new Pacer({ target: 0.7, intervalMs: 0, cpu, now, sleep }),
    /** An interval of `ms` in which the cores were `share` busy. */
    interval(ms: number, share: number) {
      state.now += ms;
      state.total += ms * 2;
      state.busy += ms * 2 * share;
    },
  };
}

describe('Pacer', () => {
  it('lets work through unpaced while the cores are below the target', async () => {
    const m = fakeMachine();
    const pacer = m.pacer();
    for (let i = 0; i < 1000; i++) await pacer.take();
    m.interval(250, 0.5);
    pacer.adjust();
    expect(pacer.pace).toBe(Infinity);
    for (let i = 0; i < 1000; i++) await pacer.take();
    expect(m.state.slept).toEqual([]);
  });

  it('slows to three quarters of what it took while the cores are over the target, then spaces the units', async () => {
    const m = fakeMachine();
    const pacer = m.pacer();
    for (let i = 0; i < 500; i++) await pacer.take(); // 500 in 250 ms: 2,000 a second
    m.interval(250, 0.9);
    pacer.adjust();
    expect(pacer.pace).toBe(1500);
    const t0 = m.state.now;
    for (let i = 0; i < 150; i++) await pacer.take();
    // 150 units at 1,500 a second: the last starts 149/1500 s after the first.
    expect(m.state.now - t0).toBeCloseTo((149 * 1000) / 1500, 6);
    // A group of 250 visits waits for its 250 turns.
    const t1 = m.state.now;
    await pacer.take(250);
    await pacer.take();
    expect(m.state.now - t1).toBeCloseTo(1000 / 1500 + (250 * 1000) / 1500, 6);
  });

  it('halves when the cores are full (they say nothing of how far over they are)', async () => {
    const m = fakeMachine();
    const pacer = m.pacer();
    for (let i = 0; i < 2000; i++) await pacer.take(); // 8,000 a second
    m.interval(250, 0.97);
    pacer.adjust();
    expect(pacer.pace).toBe(4000);
    for (let i = 0; i < 500; i++) await pacer.take();
    m.interval(250, 0.8);
    pacer.adjust();
    // 500 over the 124.75 ms their turns took plus the 250 ms interval (about 1,334 a second), less a quarter.
    expect(pacer.pace).toBeCloseTo((500 / (499 / 4000 + 0.25)) * 0.75, 6);
  });

  it('never stops background work altogether, and does not slow down for cores busy with others', async () => {
    const m = fakeMachine();
    const pacer = m.pacer();
    // Busy cores, nothing of ours: the pace stays.
    m.interval(250, 1);
    pacer.adjust();
    expect(pacer.pace).toBe(Infinity);
    for (let round = 0; round < 30; round++) {
      await pacer.take();
      m.interval(250, 1);
      pacer.adjust();
    }
    // The floor: 100 a second, however long the cores stay busy.
    expect(pacer.pace).toBe(100);
  });

  it('speeds up again when the cores are free, and lifts the limit once it is far above what is asked', async () => {
    const m = fakeMachine();
    const pacer = m.pacer();
    for (let i = 0; i < 250; i++) await pacer.take();
    m.interval(250, 0.9);
    pacer.adjust();
    expect(pacer.pace).toBe(750);
    // Still busy enough to keep the pace (between 90% of the target and the target).
    m.interval(250, 0.66);
    pacer.adjust();
    expect(pacer.pace).toBe(750);
    // Free: up by a sixth an interval while the work keeps asking.
    for (let i = 0; i < 180; i++) await pacer.take();
    m.interval(250, 0.3);
    pacer.adjust();
    expect(pacer.pace).toBeCloseTo(875, 6);
    // Nothing asked any more: the limit goes once it is four times what is asked (or the floor, 100/s).
    for (let round = 0; round < 40 && pacer.pace !== Infinity; round++) {
      m.interval(250, 0.1);
      pacer.adjust();
    }
    expect(pacer.pace).toBe(Infinity);
  });

  it("reads this machine's cores", () => {
    const a = machineCpuTimes();
    expect(a.total).toBeGreaterThan(0);
    expect(a.busy).toBeGreaterThanOrEqual(0);
    expect(a.busy).toBeLessThanOrEqual(a.total);
  });
});
