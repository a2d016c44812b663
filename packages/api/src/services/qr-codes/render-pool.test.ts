import { threadId as mainThreadId } from 'node:worker_threads';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createQrRenderPool, qrRenderThreads } from './render-pool.js';
import { buildQrSvg, svgToPng } from './render.js';

const pool = createQrRenderPool(2);
afterAll(() => pool.close());

const svgOf = (data: string, size = 1000) =>
  buildQrSvg({
    data,
    size,
    margin: 4,
    errorCorrection: 'M',
    foregroundColor: '#000000',
    backgroundColor: '#FFFFFF',
  });

describe('the QR render pool', () => {
  it('draws the PNG in a worker thread, the same picture as on the main thread', async () => {
    const svg = svgOf('https://example.org/pool', 400);
    const { png, threadId } = await pool.renderPng(svg, 400);
    expect(threadId).toBeGreaterThan(0);
    expect(threadId).not.toBe(mainThreadId);
    expect(png.equals(svgToPng(svg, 400))).toBe(true);
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 400, 400]);
  });

  it('keeps the event loop free while renders are in flight', async () => {
    const order: string[] = [];
    const renders = Array.from({ length: 6 }, (_, i) =>
      pool.renderPng(svgOf(`https://example.org/busy/${i}`), 1000).then(() => order.push(`render ${i}`)),
    );
    // Turns of the event loop while six 1000-pixel renders are queued or running: on the main
    // thread they would all finish first (each a synchronous call).
    await new Promise((r) => setImmediate(r));
    order.push('immediate');
    await Promise.all(renders);
    // Before the last render finished: on the main thread it would come after all six. (Not
    // necessarily first: a worker may finish a render while a busy machine holds this thread back.)
    expect(order.indexOf('immediate')).toBeLessThan(6);
    expect(order).toHaveLength(7);
    expect(pool.stats().workers).toBeLessThanOrEqual(2);
  });

  it('holds tasks while paused, and uses at most the threads it was given', async () => {
    pool.pause();
    const held = [pool.renderPng(svgOf('a', 200), 200), pool.renderPng(svgOf('b', 200), 200)];
    expect(pool.stats()).toMatchObject({ queued: 2, running: 0 });
    pool.resume();
    const done = await Promise.all(held);
    expect(done.every((d) => d.png.length > 0)).toBe(true);
    expect(pool.stats()).toMatchObject({ queued: 0, running: 0 });
  });

  it('sizes the pool from the cores: at least 1, at most 2, unless set', () => {
    expect(qrRenderThreads({})).toBeGreaterThanOrEqual(1);
    expect(qrRenderThreads({})).toBeLessThanOrEqual(2);
    expect(qrRenderThreads({ QR_RENDER_THREADS: '3' })).toBe(3);
    expect(qrRenderThreads({ QR_RENDER_THREADS: 'many' })).toBeLessThanOrEqual(2);
  });
});
