import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startBackground, type BackgroundWork, type Round } from './runner.js';

// The runner on a clock the test holds (vitest's fake timers): rounds at start, on a wake, on a
// notification and after their wait; never two rounds of one definition at once.

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** The timers due now (a timeout of 0 runs a millisecond later), and the rounds they start. */
const soon = () => vi.advanceTimersByTimeAsync(1);

/** A definition that records its rounds; `hold` keeps the next round open until released. */
function recording(name: string, over: Partial<BackgroundWork> = {}) {
  const rounds: Round['woken'][] = [];
  let release: (() => void) | null = null;
  let running = 0;
  let most = 0;
  const work: BackgroundWork = {
    name,
    everyMs: 1000,
    async run(round) {
      running++;
      most = Math.max(most, running);
      rounds.push(round.woken);
      if (release === null && hold.next) await new Promise<void>((r) => (release = r));
      running--;
    },
    ...over,
  };
  const hold = {
    next: false,
    release() {
      hold.next = false;
      const r = release;
      release = null;
      r?.();
    },
  };
  return { work, rounds, hold, most: () => most };
}

describe('the background runner', () => {
  it('runs each definition at start, then every `everyMs`, sooner when woken', async () => {
    const a = recording('a');
    const runner = startBackground([a.work]);
    await soon();
    expect(a.rounds).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(990);
    expect(a.rounds).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(a.rounds).toHaveLength(2);
    runner.wake('a', 'enrolled');
    await soon();
    expect(a.rounds).toHaveLength(3);
    expect([...a.rounds[2]!]).toEqual(['enrolled']);
    await runner.stop();
  });

  it('a wake during a round runs one more right after it, never two at once', async () => {
    const a = recording('a');
    const runner = startBackground([a.work]);
    a.hold.next = true;
    await soon();
    runner.wake('a');
    runner.wake('a');
    await soon();
    expect(a.rounds).toHaveLength(1);
    a.hold.release();
    await soon();
    expect(a.rounds).toHaveLength(2);
    expect(a.most()).toBe(1);
    await runner.stop();
  });

  it('a notification wakes the definitions listening on its channel only', async () => {
    const a = recording('a', { channels: ['events'], everyMs: 60_000 });
    const b = recording('b', { everyMs: 60_000 });
    const runner = startBackground([a.work, b.work]);
    await soon();
    runner.notify('events');
    await soon();
    expect(a.rounds).toHaveLength(2);
    expect([...a.rounds[1]!]).toEqual(['events']);
    expect(b.rounds).toHaveLength(1);
    await runner.stop();
  });

  it('a round says when to look again; one that fails is logged and tried at its next turn', async () => {
    let calls = 0;
    const log = vi.fn();
    const work: BackgroundWork = {
      name: 'flaky',
      everyMs: 500,
      async run() {
        calls++;
        if (calls === 1) return 0;
        if (calls === 2) throw new Error('database restarting');
        return 10_000;
      },
    };
    const runner = startBackground([work], { log });
    await soon();
    await soon();
    // The first round asked for another at once; the second failed.
    expect(calls).toBe(2);
    expect(log).toHaveBeenCalledWith("background work 'flaky' failed (tried again)", expect.anything());
    await vi.advanceTimersByTimeAsync(490);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(20);
    expect(calls).toBe(3);
    await vi.advanceTimersByTimeAsync(9_900);
    expect(calls).toBe(3);
    await runner.stop();
  });

  it('stop waits for the round in flight, then drains; no round starts after it', async () => {
    const drained = vi.fn();
    const a = recording('a', { drain: async () => drained() });
    const runner = startBackground([a.work]);
    a.hold.next = true;
    await soon();
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    await soon();
    expect(stopped).toBe(false);
    a.hold.release();
    await stopping;
    expect(drained).toHaveBeenCalledOnce();
    runner.wake('a');
    await vi.advanceTimersByTimeAsync(5000);
    expect(a.rounds).toHaveLength(1);
  });
});
