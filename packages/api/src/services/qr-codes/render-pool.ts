import { createRequire } from 'node:module';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { resvgOptions } from './render.js';

// QR PNGs are drawn by resvg, a synchronous native call (tens of milliseconds at 1000 pixels):
// on the main thread a batch of previews would stall every other request. They are drawn here, in
// a small pool of worker threads.
//
// The worker is a few lines of plain JavaScript run with `eval`, given the resolved path of
// @resvg/resvg-js: it needs no TypeScript loader under tsx or vitest and no bundle entry of its
// own in the esbuild-built server (resvg stays an external native module there). The drawing
// options come with each task from render.ts (`resvgOptions`), so there is one definition.
//
// resvg's pixmaps (4 MB at 1000 pixels) live outside the V8 heap and are freed only when their
// JavaScript wrappers are collected; a worker's small heap rarely needs a collection, so the thread
// kept every pixmap (RSS grew ~3.3 MB a render: 3 GB after 900). Each task is followed by a
// collection on the next turn of the worker's loop (collecting at once, before the native
// finalizers had their turn, still left 3 GB); 900 renders in three loops of batches of ten now
// peak at ~250 MB. `gc` is reached through vm, since a worker takes no V8 flags of its own.
const WORKER_SOURCE = `
const { parentPort, workerData, threadId } = require('node:worker_threads');
const { Resvg } = require(workerData.resvgPath);
require('node:v8').setFlagsFromString('--expose-gc');
const collect = require('node:vm').runInNewContext('gc');
parentPort.on('message', (task) => {
  try {
    const png = new Resvg(task.svg, task.options).render().asPng();
    parentPort.postMessage({ id: task.id, png, threadId });
  } catch (err) {
    parentPort.postMessage({ id: task.id, error: String((err && err.message) || err), threadId });
  }
  setImmediate(collect);
});
`;

/** Workers in the pool: one less than the cores, at least 1, at most 2 (QR_RENDER_THREADS overrides). */
export function qrRenderThreads(env: NodeJS.ProcessEnv = process.env): number {
  const set = Number(env.QR_RENDER_THREADS);
  if (Number.isInteger(set) && set >= 1 && set <= 16) return set;
  return Math.min(2, Math.max(1, os.availableParallelism() - 1));
}

interface Task {
  id: number;
  svg: string;
  size: number;
  resolve: (r: { png: Buffer; threadId: number }) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  task: Task | null;
}

export interface QrRenderPool {
  /** The SVG as a PNG `size` pixels wide, drawn in a worker; `threadId` is the worker's. */
  renderPng(svg: string, size: number): Promise<{ png: Buffer; threadId: number }>;
  /** Tests: hold tasks in the queue (they stay in flight) until `resume`. */
  pause(): void;
  resume(): void;
  stats(): { queued: number; running: number; workers: number };
  close(): Promise<void>;
}

export function createQrRenderPool(threads = qrRenderThreads()): QrRenderPool {
  const resvgPath = createRequire(import.meta.url).resolve('@resvg/resvg-js');
  const slots: Slot[] = [];
  const queue: Task[] = [];
  let nextId = 1;
  let paused = false;
  let closed = false;

  const startWorker = (): Slot => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { resvgPath } });
    // An idle pool does not keep the process alive.
    worker.unref();
    const slot: Slot = { worker, task: null };
    worker.on('message', (m: { id: number; png?: Uint8Array; error?: string; threadId: number }) => {
      const task = slot.task;
      if (!task || task.id !== m.id) return;
      slot.task = null;
      if (m.error !== undefined) task.reject(new Error(`QR rendering failed: ${m.error}`));
      else
        task.resolve({ png: Buffer.from(m.png!.buffer, m.png!.byteOffset, m.png!.byteLength), threadId: m.threadId });
      dispatch();
    });
    const lost = (err: Error) => {
      // A worker that died takes only its own task with it; the next task gets a new worker.
      const i = slots.indexOf(slot);
      if (i >= 0) slots.splice(i, 1);
      slot.task?.reject(err);
      slot.task = null;
      dispatch();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`QR render worker stopped (exit code ${code})`)));
    slots.push(slot);
    return slot;
  };

  const dispatch = () => {
    if (closed) return;
    while (!paused && queue.length > 0) {
      const slot = slots.find((s) => !s.task) ?? (slots.length < threads ? startWorker() : null);
      if (!slot) return;
      const task = queue.shift()!;
      slot.task = task;
      slot.worker.postMessage({ id: task.id, svg: task.svg, options: resvgOptions(task.size) });
    }
  };

  return {
    renderPng(svg, size) {
      if (closed) return Promise.reject(new Error('The QR render pool is closed'));
      return new Promise((resolve, reject) => {
        queue.push({ id: nextId++, svg, size, resolve, reject });
        dispatch();
      });
    },
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      dispatch();
    },
    stats() {
      return { queued: queue.length, running: slots.filter((s) => s.task).length, workers: slots.length };
    },
    async close() {
      closed = true;
      for (const t of queue.splice(0)) t.reject(new Error('The QR render pool is closed'));
      await Promise.all(slots.splice(0).map((s) => s.worker.terminate()));
    },
  };
}

let shared: QrRenderPool | null = null;

/** The process's pool, started on first use. */
export function qrRenderPool(): QrRenderPool {
  return (shared ??= createQrRenderPool());
}
