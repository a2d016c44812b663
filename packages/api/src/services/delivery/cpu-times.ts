import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';

/** CPU time in milliseconds, as running totals: busy (every state but idle) and all there was to use. */
export interface CpuTimes {
  busy: number;
  total: number;
}

/** The host's cores (every process on it, PostgreSQL's too when it is here). */
export function machineCpuTimes(): CpuTimes {
  let busy = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    const all = times.user + times.nice + times.sys + times.irq + times.idle;
    total += all;
    busy += all - times.idle;
  }
  return { busy, total };
}

/** Where the kernel says what CPU this process may use (injectable: tests give files of their own). */
export interface CgroupFiles {
  /** cgroup v2: `<quota> <period>` in microseconds, or `max <period>` for no limit. */
  v2Max: string;
  /** cgroup v2: `usage_usec <n>` among other lines, the group's CPU time. */
  v2Stat: string;
  /** cgroup v1: the quota in microseconds a period, -1 for no limit. */
  v1Quota: string;
  /** cgroup v1: the period in microseconds. */
  v1Period: string;
  /** cgroup v1: the group's CPU time in nanoseconds. */
  v1Usage: string;
}

/** A container's own cgroup, as Docker and Kubernetes mount it at /sys/fs/cgroup. */
export const CGROUP_FILES: CgroupFiles = {
  v2Max: '/sys/fs/cgroup/cpu.max',
  v2Stat: '/sys/fs/cgroup/cpu.stat',
  v1Quota: '/sys/fs/cgroup/cpu/cpu.cfs_quota_us',
  v1Period: '/sys/fs/cgroup/cpu/cpu.cfs_period_us',
  v1Usage: '/sys/fs/cgroup/cpuacct/cpuacct.usage',
};

function readText(path: string): string | null {
  try {
    return fs.readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * The group's limit in cores (null: none, or no cgroup) and its CPU time in ms (null: not readable),
 * from cgroup v2's files when there are, else v1's.
 */
function readCgroup(files: CgroupFiles): { cores: number | null; usedMs: number | null } {
  const max = readText(files.v2Max);
  if (max !== null) {
    const [quota, period] = max.split(/\s+/);
    const usec = /^usage_usec\s+(\d+)/m.exec(readText(files.v2Stat) ?? '');
    return {
      cores: quota !== 'max' && Number(quota) > 0 && Number(period) > 0 ? Number(quota) / Number(period) : null,
      usedMs: usec ? Number(usec[1]) / 1000 : null,
    };
  }
  const quota = Number(readText(files.v1Quota));
  const period = Number(readText(files.v1Period));
  const usage = readText(files.v1Usage);
  return {
    cores: quota > 0 && period > 0 ? quota / period : null,
    usedMs: usage !== null && /^\d+$/.test(usage) ? Number(usage) / 1e6 : null,
  };
}

export interface CpuSource {
  /** What is read: 'cgroup quota of 1.5 cores' or "the host's 8 cores". */
  describe: string;
  read: () => CpuTimes;
}

/**
 * The CPU this process may use. In a container with a CPU quota (cgroup v2 `cpu.max`, else v1
 * `cpu.cfs_quota_us` / `cpu.cfs_period_us`), the group's own usage (`cpu.stat` usage_usec, v1
 * `cpuacct.usage`) against the quota: busy is the group's CPU time, total the quota's cores times
 * the time that passed, so 1.5 cores used flat out reads as full even on a 64-core host. Without a
 * quota (`max`, -1, or no cgroup files), the host's cores (`machineCpuTimes`). The choice is made
 * once; a quota changed later is followed (read each time), one removed later counts as the host's
 * cores in number.
 */
export function cpuSource(
  opts: { files?: Partial<CgroupFiles>; host?: () => CpuTimes; hostCores?: () => number; now?: () => number } = {},
): CpuSource {
  const files = { ...CGROUP_FILES, ...opts.files };
  const host = opts.host ?? machineCpuTimes;
  const hostCores = opts.hostCores ?? (() => os.cpus().length);
  const first = readCgroup(files);
  if (first.cores === null || first.usedMs === null) return { describe: `the host's ${hostCores()} cores`, read: host };
  const now = opts.now ?? (() => performance.now());
  let total = 0;
  let cores = first.cores;
  let used = first.usedMs;
  let lastAt = now();
  return {
    describe: `a cgroup quota of ${first.cores} cores`,
    read() {
      const at = now();
      const g = readCgroup(files);
      // The capacity of the time since the last reading, at the limit that held during it.
      total += cores * (at - lastAt);
      lastAt = at;
      cores = g.cores ?? hostCores();
      used = g.usedMs ?? used;
      return { busy: used, total };
    },
  };
}
