import { performance } from 'node:perf_hooks';

/** The p-th percentile of times sorted ascending (nearest rank below). */
export const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * Latency of sequential requests: `warmUp` untimed calls of `request`, then `rounds` timed ones. A
 * timed answer with a `status` (an HTTP answer) must be 200. The times in ms, sorted.
 */
export async function timeRequests(
  label: string,
  { warmUp, rounds }: { warmUp: number; rounds: number },
  request: (i: number) => Promise<unknown>,
): Promise<number[]> {
  for (let i = 0; i < warmUp; i++) await request(i);
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    const res = await request(i);
    times.push(performance.now() - t);
    const status = (res as { status?: number } | undefined)?.status;
    if (status !== undefined && status !== 200) throw new Error(`${label}: HTTP ${status}`);
  }
  return times.sort((a, b) => a - b);
}
