/**
 * bench:import-read's thread (bench/import-read.ts): previews each file as the API's preview thread
 * does (imports-preview-thread.ts: the bytes read as text, then `uploadMoveIn`), timed, then once
 * more under V8's sampling heap profiler for what it allocated and where.
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver, constants, performance, type PerformanceEntry } from 'node:perf_hooks';
import { createDb, tenantDb } from '@lampstand/db';
import { uploadMoveIn } from '@lampstand/api/imports-upload';

export interface ReadThreadData {
  url: string;
  tenantId: number;
  runs: number;
  files: { kind: string; fileName: string; bytes: Uint8Array }[];
}

export interface ReadThreadResult {
  kind: string;
  fileBytes: number;
  rows: number;
  allocatedBytes: number;
  top: { name: string; bytes: number }[];
  minorGcs: number;
  majorGcs: number;
  threadCpuMs: number[];
  processCpuMs: number[];
  wallMs: number[];
  /** CPU ms a preview of the process's threads, by name. */
  byThread: { name: string; ms: number }[];
}

/** This thread's CPU (ms, at the clock tick's 10 ms): utime and stime of /proc/thread-self/stat. */
function threadCpuMs(): number {
  const stat = fs.readFileSync('/proc/thread-self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU ms of each of the process's threads by name (/proc/self/task/<tid>/comm and stat). */
export function threadsByName(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      const self = fs.readlinkSync('/proc/thread-self').split('/').pop();
      const name = tid === self ? 'this thread' : tid === String(process.pid) ? 'the main thread' : `thread ${tid}`;
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) * 10);
    } catch {
      /* ended meanwhile */
    }
  }
  return out;
}

interface Node {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: Node[];
}

export async function measure(data: ReadThreadData): Promise<ReadThreadResult[]> {
  const db = createDb(data.url, { max: 2 });
  const tdb = tenantDb(db, data.tenantId);
  const gcs = { minor: 0, major: 0 };
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEntry & { detail?: { kind: number } })[]) {
      if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) gcs.minor++;
      else if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) gcs.major++;
    }
  });
  obs.observe({ entryTypes: ['gc'] });
  const session = new Session();
  session.connect();
  const preview = (f: ReadThreadData['files'][number]) =>
    uploadMoveIn(tdb, data.tenantId, {
      fileName: f.fileName,
      csv: Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength).toString('utf8'),
      createdBy: null,
    });
  const out: ReadThreadResult[] = [];
  try {
    for (const f of data.files) {
      const first = await preview(f); // warms up
      const r: ReadThreadResult = {
        kind: f.kind,
        fileBytes: f.bytes.byteLength,
        rows: first.preview.rows,
        allocatedBytes: 0,
        top: [],
        minorGcs: 0,
        majorGcs: 0,
        threadCpuMs: [],
        processCpuMs: [],
        wallMs: [],
        byThread: [],
      };
      await new Promise((res) => setTimeout(res, 50)); // the observer's entries of the warm-up
      gcs.minor = gcs.major = 0;
      const names0 = threadsByName();
      for (let i = 0; i < data.runs; i++) {
        const t0 = threadCpuMs();
        const p0 = process.cpuUsage();
        const w0 = performance.now();
        await preview(f);
        r.wallMs.push(Math.round(performance.now() - w0));
        r.threadCpuMs.push(threadCpuMs() - t0);
        const p = process.cpuUsage(p0);
        r.processCpuMs.push(Math.round((p.user + p.system) / 1000));
      }
      await new Promise((res) => setTimeout(res, 50));
      const names1 = threadsByName();
      r.byThread = [...names1]
        .map(([name, ms]) => ({ name, ms: Math.round((ms - (names0.get(name) ?? 0)) / data.runs) }))
        .filter((t) => t.ms > 0);
      r.minorGcs = gcs.minor / data.runs;
      r.majorGcs = gcs.major / data.runs;
      await session.post('HeapProfiler.enable');
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: 1024,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      await preview(f);
      const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: Node } };
      await session.post('HeapProfiler.disable');
      const by = new Map<string, number>();
      const nameOf = (n: Node) =>
        `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}`;
      // Each function with its caller's (where the function is a built-in or a library's, the first of ours up the stack).
      const walk = (n: Node, caller: string) => {
        r.allocatedBytes += n.selfSize;
        const name = nameOf(n);
        const key = caller ? `${name} ← ${caller}` : name;
        by.set(key, (by.get(key) ?? 0) + n.selfSize);
        const ours = /\/(api|server)\/src\//.test(n.callFrame.url);
        for (const c of n.children) walk(c, ours ? name : caller);
      };
      walk(profile.head, '');
      r.top = [...by]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12)
        .map(([name, bytes]) => ({ name, bytes }));
      out.push(r);
    }
  } finally {
    obs.disconnect();
    session.disconnect();
    await db.destroy();
  }
  return out;
}
