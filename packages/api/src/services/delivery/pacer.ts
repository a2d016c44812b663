import { performance } from 'node:perf_hooks';
import { cpuSource, type CpuTimes } from './cpu-times.js';

export interface PacerOptions {
  /** The share of the CPU this process may use (0–1) above which background work slows down. */
  target: number;
  /** Reads the CPU's times (default `cpuSource()`: a container's quota and usage, else the host's cores). */
  cpu?: () => CpuTimes;
  /** How often the cores are read and the pace adjusted. */
  intervalMs?: number;
  /**
   * The slowest pace (default 100 a second): background work never stops altogether, even on a
   * machine kept busy by work that is not ours (a container without a CPU quota reads its host's cores).
   */
  minPerSecond?: number;
  /** Monotonic milliseconds (tests give their own). */
  now?: () => number;
  /** Waits `ms` (tests give their own). */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Background work (the engine's sends, the journey runner's moves) paced by how busy the CPU it
 * may use is, so that a burst of 100,000 messages leaves room for people's requests.
 *
 * `nice` alone does not do it: PostgreSQL's backends do the workers' database work at the API's
 * priority (and Linux's autogroups share the cores between sessions before `nice` counts), so a
 * worker sending flat out took the cores from another church's requests (docs/benchmarks.md,
 * 'Journeys'). The pacer reads the CPU every `intervalMs` (in a container with a CPU quota, its
 * cgroup's usage against the quota; else the host's cores: cpu-times.ts): while busier than `target`,
 * the pace falls to three quarters of what was taken in that interval (to half while they are
 * full); while they are well below it, the pace rises by a sixth each interval, and once it is far
 * above what is asked for, the limit is lifted. Each unit of work takes its turn at the pace
 * (`take`). One pacer per process, shared by everything that sends or moves; each process paces
 * itself, all of them reading the same CPU.
 */
export class Pacer {
  /** Units a second; Infinity: no limit. */
  private perSecond = Infinity;
  /** When the next unit may start (the theoretical arrival time of a GCRA). */
  private nextAt = 0;
  private taken = 0;
  private last: CpuTimes;
  private lastTick: number;
  private readonly timer: NodeJS.Timeout | null;
  private readonly cpu: () => CpuTimes;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly minPerSecond: number;

  constructor(private readonly opts: PacerOptions) {
    this.cpu = opts.cpu ?? cpuSource().read;
    this.now = opts.now ?? (() => performance.now());
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.minPerSecond = opts.minPerSecond ?? 100;
    this.last = this.cpu();
    this.lastTick = this.now();
    const interval = opts.intervalMs ?? 250;
    // Tests call `adjust` themselves (intervalMs 0).
    this.timer = interval > 0 ? setInterval(() => this.adjust(), interval) : null;
    this.timer?.unref();
  }

  /** The current limit, units a second (Infinity: none). */
  get pace(): number {
    return this.perSecond;
  }

  /** Waits for the turn of `units` units of work at the current pace. */
  async take(units = 1): Promise<void> {
    this.taken += units;
    if (this.perSecond === Infinity) return;
    const now = this.now();
    const start = Math.max(now, this.nextAt);
    this.nextAt = start + (units * 1000) / this.perSecond;
    if (start > now) await this.sleep(start - now);
  }

  /** Reads the cores and sets the pace (every `intervalMs`). */
  adjust(): void {
    const cpu = this.cpu();
    const now = this.now();
    const total = cpu.total - this.last.total;
    const seconds = (now - this.lastTick) / 1000;
    if (total <= 0 || seconds <= 0) return;
    const busy = (cpu.busy - this.last.busy) / total;
    const taken = this.taken / seconds;
    this.last = cpu;
    this.lastTick = now;
    this.taken = 0;
    if (busy > this.opts.target) {
      // Nothing of ours ran: the cores are someone else's, and slowing down would not help them.
      if (taken === 0) return;
      // Full cores say nothing of how far over they are: halve (a burst's first second, which
      // people's requests feel, is over sooner); else by a quarter.
      const cut = busy >= 0.95 ? 0.5 : 0.75;
      this.perSecond = Math.max(this.minPerSecond, Math.min(this.perSecond, taken) * cut);
      this.nextAt = Math.max(this.nextAt, now);
    } else if (busy < this.opts.target * 0.9 && this.perSecond !== Infinity) {
      this.perSecond *= 7 / 6;
      if (this.perSecond > 4 * Math.max(taken, this.minPerSecond)) this.perSecond = Infinity;
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
