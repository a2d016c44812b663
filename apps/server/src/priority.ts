import fs from 'node:fs';
import os from 'node:os';

/**
 * A process's or a thread's OS priority (`nice`), lowered so that background work waits for a core
 * and people's requests do not.
 *
 * On Linux every thread has an id of its own (the entries of /proc/self/task) and `setpriority`
 * given that id changes that thread alone: `os.setPriority(n)` without an id lowers only the
 * calling thread, so V8's helper threads (garbage collection, compilation), already running when a
 * process starts, would stay at the old priority. A thread started later inherits the priority of
 * the thread that starts it.
 */

function ownThreadId(): number | null {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    return tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/** Lowers `tid` to `nice` unless it already runs at `nice` or lower; answers its priority. */
function lower(tid: number, nice: number): number {
  if (nice > os.getPriority(tid)) os.setPriority(tid, nice);
  return os.getPriority(tid);
}

/**
 * Lowers this thread alone (a worker thread of the API process). Elsewhere than Linux, or if
 * refused, the thread keeps the process's priority. Answers the priority it runs at (null where
 * it cannot be read).
 */
export function lowerThreadPriority(nice: number): number | null {
  const tid = ownThreadId();
  if (tid === null) return null;
  try {
    return lower(tid, nice);
  } catch {
    return null;
  }
}

/** Lowers every thread of this process but `skip`; answers how many, or null off Linux. */
function lowerThreads(nice: number, skip: number | null): number | null {
  let tids: string[];
  try {
    tids = fs.readdirSync('/proc/self/task');
  } catch {
    return null;
  }
  let lowered = 0;
  for (const tid of tids) {
    if (Number(tid) === skip) continue;
    try {
      lower(Number(tid), nice);
      lowered += 1;
    } catch {
      // A thread that ended between the listing and here.
    }
  }
  return lowered;
}

/**
 * Lowers every thread of this process (`pnpm worker`): on Linux each id under /proc/self/task,
 * elsewhere the process as the OS sees it. Answers how many threads were lowered, or null when
 * none could be (the caller says so).
 */
export function lowerProcessPriority(nice: number): number | null {
  const lowered = lowerThreads(nice, null);
  if (lowered !== null) return lowered > 0 ? lowered : null;
  try {
    os.setPriority(nice);
    return 1;
  } catch {
    return null;
  }
}

/**
 * Lowers every thread of this process but the one that asks (the event loop's), so that a worker
 * thread's garbage waits for a core instead of taking one from the event loop. Those are V8's
 * helper threads, which collect the garbage of every isolate in the process (a worker thread's too)
 * and compile, and libuv's pool (files, DNS lookups, password hashing, response compression), which
 * already exists when an ES module's code first runs: loading the modules used it. Threads started
 * later inherit the priority of the thread that starts them (a worker thread started by the loop
 * keeps the loop's). Answers how many were lowered, or null off Linux.
 */
export function lowerHelperThreadsPriority(nice: number): number | null {
  const self = ownThreadId();
  return self === null ? null : lowerThreads(nice, self);
}
