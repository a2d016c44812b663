/**
 * pnpm bench:qr-render — what QR PNG renders do to the event loop. Eight previews at 1000 pixels,
 * drawn as the server did before (resvg on the main thread, one synchronous call per request)
 * and as it does now (the render pool's worker threads), while a timer asks for a turn of the
 * event loop every millisecond. Prints the longest wait of that timer (what any other request
 * would have waited) and the total time, for both.
 */
import { buildQrSvg, qrRenderPool, svgToPng } from '@lampstand/api/server';

const COUNT = Number(process.env.BENCH_RENDERS ?? 8);
const SIZE = 1000;

const svgs = Array.from({ length: COUNT }, (_, i) =>
  buildQrSvg({
    data: `https://example.org/bench/${i}/${'x'.repeat(40)}`,
    size: SIZE,
    margin: 4,
    errorCorrection: 'M',
    foregroundColor: '#1A2B3C',
    backgroundColor: '#FFFFFF',
  }),
);

/** Runs `renderAll` while a 1 ms timer notes each turn of the event loop; the longest gap between turns is what another request waits. */
async function measure(label: string, renderAll: () => Promise<unknown>) {
  const turns: number[] = [performance.now()];
  const tick = setInterval(() => turns.push(performance.now()), 1);
  const start = performance.now();
  await renderAll();
  const total = performance.now() - start;
  await new Promise((r) => setTimeout(r, 5));
  clearInterval(tick);
  let longest = 0;
  for (let i = 1; i < turns.length; i++) longest = Math.max(longest, turns[i]! - turns[i - 1]!);
  console.log(
    `${label.padEnd(28)} longest wait for a turn of the event loop ${longest.toFixed(0).padStart(5)} ms   all ${COUNT} done in ${total
      .toFixed(0)
      .padStart(5)} ms`,
  );
}

const pool = qrRenderPool();
// Warm both paths (the worker starts on first use).
svgToPng(svgs[0]!, SIZE);
await pool.renderPng(svgs[0]!, SIZE);

console.log(`${COUNT} QR PNG renders at ${SIZE} px, started together`);
await measure('main thread (before)', () =>
  Promise.all(
    svgs.map(async (svg) => {
      await new Promise((r) => setImmediate(r)); // as requests do: each on a turn of its own
      return svgToPng(svg, SIZE);
    }),
  ),
);
await measure(`render pool (${pool.stats().workers} worker(s))`, () =>
  Promise.all(svgs.map((svg) => pool.renderPng(svg, SIZE))),
);
await pool.close();
