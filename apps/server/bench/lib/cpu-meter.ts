/**
 * CPU seconds spent by the processes of a bench over a phase, by role: node processes by pid, and
 * the PostgreSQL backends of the bench's database by application_name (PGAPPNAME of a worker,
 * 'lampstand-jobs' for pg-boss). Read from /proc (Linux, PostgreSQL on this machine); elsewhere
 * the figures are null. Sampled every second, so a backend that exits mid-phase keeps what it used.
 */
import fs from 'node:fs';
import os from 'node:os';
import { sql, type Db } from '@lampstand/db';

const TICKS = 100; // USER_HZ: 100 on every Linux the benches run on

function cpuSeconds(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / TICKS;
  } catch {
    return null;
  }
}

export function startCpuMeter(db: Db, processes: Record<string, number[]>, backendRole: (app: string) => string) {
  const start = new Map<string, number>();
  const last = new Map<string, number>();
  const roleOf = new Map<string, string>();
  const available = os.platform() === 'linux';
  let first = true;
  const sample = async () => {
    for (const [role, pids] of Object.entries(processes))
      for (const pid of pids) track(`p${pid}`, role, cpuSeconds(pid));
    const { rows } = await sql<{ pid: number; applicationName: string }>`
      select pid, application_name from pg_stat_activity where datname = current_database()`.execute(db);
    // A backend that connects after the start counts from 0.
    for (const r of rows)
      track(`b${r.pid}`, `PostgreSQL for ${backendRole(r.applicationName)}`, cpuSeconds(r.pid), first ? undefined : 0);
    first = false;
  };
  /** A process seen for the first time after the start counts from `from` (a new backend: 0). */
  const track = (key: string, role: string, v: number | null, from?: number) => {
    if (v === null) return;
    roleOf.set(key, role);
    if (!start.has(key)) start.set(key, from ?? v);
    last.set(key, Math.max(v, last.get(key) ?? 0));
  };
  let stopped = false;
  const loop = (async () => {
    if (!available) return;
    // The first sample is the start: the processes' CPU so far is not counted.
    await sample();
    while (!stopped) {
      await new Promise((r) => setTimeout(r, 1000));
      await sample().catch(() => undefined);
    }
  })();
  return {
    /** CPU seconds by role since the start; null off Linux. */
    async stop(): Promise<Map<string, number> | null> {
      await sample().catch(() => undefined);
      stopped = true;
      await loop;
      if (!available) return null;
      const byRole = new Map<string, number>();
      for (const [key, v] of last) {
        const role = roleOf.get(key)!;
        byRole.set(role, (byRole.get(role) ?? 0) + v - (start.get(key) ?? 0));
      }
      return byRole;
    },
  };
}
