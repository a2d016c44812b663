import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cpuSource, type CgroupFiles, type CpuTimes } from './cpu-times.js';
import { Pacer } from './pacer.js';

// The CPU the pacer reads, from fake cgroup files in a directory of the test's own and a clock the
// test moves: a container's quota and usage where it has a quota, the host's cores otherwise.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cgroup-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** A cgroup of files written by the test (`null`: the file does not exist). */
function fakeCgroup(initial: Partial<Record<keyof CgroupFiles, string | null>>) {
  const base = path.join(dir, String(++n));
  fs.mkdirSync(base);
  const files = {
    v2Max: path.join(base, 'cpu.max'),
    v2Stat: path.join(base, 'cpu.stat'),
    v1Quota: path.join(base, 'cpu.cfs_quota_us'),
    v1Period: path.join(base, 'cpu.cfs_period_us'),
    v1Usage: path.join(base, 'cpuacct.usage'),
  };
  const write = (values: Partial<Record<keyof CgroupFiles, string | null>>) => {
    for (const [k, v] of Object.entries(values)) {
      const file = files[k as keyof CgroupFiles];
      if (v === null) fs.rmSync(file, { force: true });
      else fs.writeFileSync(file, `${v}\n`);
    }
  };
  write(initial);
  return { files, write };
}

/** A host whose times the test sets, and a clock it moves. */
function fakeHost() {
  const state: { times: CpuTimes; now: number } = { times: { busy: 0, total: 0 }, now: 0 };
  return { state, host: () => state.times, hostCores: () => 64, now: () => state.now };
}

/** The busy share between two readings. */
const share = (a: CpuTimes, b: CpuTimes) => (b.busy - a.busy) / (b.total - a.total);

describe('the CPU the pacer reads', () => {
  it('cgroup v2 with a quota: the group’s usage against the quota, not the host’s cores', () => {
    const h = fakeHost();
    const g = fakeCgroup({
      v2Max: '150000 100000',
      v2Stat: 'usage_usec 1000000\nuser_usec 800000\nsystem_usec 200000',
    });
    const source = cpuSource({ files: g.files, ...h });
    expect(source.describe).toBe('a cgroup quota of 1.5 cores');
    const a = source.read();
    // A second passes; the group used 0.75 s of CPU: half of its 1.5 cores (the host has 64).
    h.state.now += 1000;
    g.write({ v2Stat: 'usage_usec 1750000\nuser_usec 1400000\nsystem_usec 350000' });
    const b = source.read();
    expect(share(a, b)).toBeCloseTo(0.5, 6);
    // Flat out at its quota for 250 ms: full.
    h.state.now += 250;
    g.write({ v2Stat: 'usage_usec 2125000' });
    expect(share(b, source.read())).toBeCloseTo(1, 6);
  });

  it("cgroup v2 without a quota ('max'): the host's cores", () => {
    const h = fakeHost();
    const g = fakeCgroup({ v2Max: 'max 100000', v2Stat: 'usage_usec 5000000' });
    const source = cpuSource({ files: g.files, ...h });
    expect(source.describe).toBe("the host's 64 cores");
    h.state.times = { busy: 300, total: 1000 };
    expect(source.read()).toEqual({ busy: 300, total: 1000 });
  });

  it('cgroup v1 when there is no v2 file: cfs quota and period, cpuacct usage in nanoseconds', () => {
    const h = fakeHost();
    const g = fakeCgroup({ v1Quota: '50000', v1Period: '100000', v1Usage: '2000000000' });
    const source = cpuSource({ files: g.files, ...h });
    expect(source.describe).toBe('a cgroup quota of 0.5 cores');
    const a = source.read();
    h.state.now += 2000;
    g.write({ v1Usage: '2900000000' }); // 0.9 s of CPU in 2 s of a half core: 90%
    expect(share(a, source.read())).toBeCloseTo(0.9, 6);
  });

  it("cgroup v1 without a quota (-1), or no cgroup at all: the host's cores", () => {
    const h = fakeHost();
    h.state.times = { busy: 7, total: 10 };
    const v1 = fakeCgroup({ v1Quota: '-1', v1Period: '100000', v1Usage: '5' });
    expect(cpuSource({ files: v1.files, ...h }).read()).toEqual({ busy: 7, total: 10 });
    const none = fakeCgroup({});
    expect(cpuSource({ files: none.files, ...h }).describe).toBe("the host's 64 cores");
  });

  it('a quota changed later is followed from then on', () => {
    const h = fakeHost();
    const g = fakeCgroup({ v2Max: '100000 100000', v2Stat: 'usage_usec 0' });
    const source = cpuSource({ files: g.files, ...h });
    const a = source.read();
    h.state.now += 1000;
    g.write({ v2Stat: 'usage_usec 500000', v2Max: '200000 100000' });
    // That second was at one core: half used.
    const b = source.read();
    expect(share(a, b)).toBeCloseTo(0.5, 6);
    h.state.now += 1000;
    g.write({ v2Stat: 'usage_usec 1500000' });
    // The next at two: a second of CPU is half again.
    expect(share(b, source.read())).toBeCloseTo(0.5, 6);
  });

  it('slows the pacer when the group is busy against its quota while the host is idle', async () => {
    const h = fakeHost();
    const g = fakeCgroup({ v2Max: '100000 100000', v2Stat: 'usage_usec 0' });
    const source = cpuSource({ files: g.files, ...h });
    const pacer = new Pacer({ target: 0.7, intervalMs: 0, cpu: source.read, now: h.now, sleep: async () => {} });
    for (let i = 0; i < 500; i++) await pacer.take(); // 500 in 250 ms: 2,000 a second
    h.state.now += 250;
    g.write({ v2Stat: 'usage_usec 225000' }); // 90% of its one core; the host's 64 cores say nothing
    pacer.adjust();
    expect(pacer.pace).toBe(1500);
    pacer.close();
  });
});
