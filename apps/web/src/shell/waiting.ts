import { trpc } from '../lib/trpc';

/** How often an open tab asks again what waits (and at once when the window gets focus back). */
const POLL_MS = 60_000;

/** The sidebar's badges and the bell's count: one small query, polled while the tab is visible. */
export function useWaitingCounts() {
  return trpc.waiting.counts.useQuery(undefined, {
    refetchInterval: POLL_MS,
    refetchOnWindowFocus: 'always',
    staleTime: 10_000,
  }).data;
}
