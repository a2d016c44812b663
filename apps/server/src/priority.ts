import fs from 'node:fs';
import os from 'node:os';

/**
 * The threads of this process (their ids, for setpriority), or null where the OS has no
 * /proc/self/task (then the priority is the process's alone).
 */
function ownThreads(): number[] | null {
  try {
    return fs
      .readdirSync('/proc/self/task')
      .map(Number)
      .filter((tid) => tid > 0);
  } catch {
    return null;
  }
}

/**
 * Lowers the priority (`nice`) of the whole process, every thread of it. On Linux a priority
 * belongs to a thread, and `os.setPriority(nice)` changes the calling one only: V8's garbage
 * collector and compiler helpers, started with the process, kept the priority they began with and
 * competed with the API's requests for a core. Threads started afterwards inherit it from the
 * thread that starts them. Answers the highest priority (lowest nice) any thread still has.
 */
export function lowerProcessPriority(nice: number): number {
  for (const tid of ownThreads() ?? [0]) {
    try {
      if (nice > os.getPriority(tid)) os.setPriority(tid, nice);
    } catch {
      // A thread that ended meanwhile, or a priority the OS refused: the answer says what holds.
    }
  }
  return processPriority();
}

/** The lowest nice among this process's threads: the priority its busiest helper may run at. */
export function processPriority(): number {
  const tids = ownThreads();
  if (!tids) return os.getPriority();
  let least = Infinity;
  for (const tid of tids) {
    try {
      least = Math.min(least, os.getPriority(tid));
    } catch {
      // ended meanwhile
    }
  }
  return Number.isFinite(least) ? least : os.getPriority();
}
