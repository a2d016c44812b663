import { useCallback, useEffect, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { loadBundle, pending, saveBundle, settle, type Bundle, type OfflineAction } from './station-offline';

/** How often a station tries to send what it did offline. */
const SYNC_EVERY_MS = 10_000;
/** How often it refreshes its bundle: a room station's pickups change more often than the families. */
const BUNDLE_EVERY_MS = { checkIn: 5 * 60_000, room: 60_000 };

/**
 * A station's offline side: today's bundle (fresh from the server, else the copy kept in
 * IndexedDB), what waits to be sent, and the sync that sends it when the network returns (at once
 * on the browser's 'online', and every 10 s).
 */
export function useStationOffline(kind: 'checkIn' | 'room'): {
  bundle: Bundle | undefined;
  queue: OfflineAction[];
  refused: string[];
  refresh: () => void;
} {
  const utils = trpc.useUtils();
  const fresh = trpc.checkin.offlineBundle.useQuery(undefined, {
    retry: false,
    refetchInterval: BUNDLE_EVERY_MS[kind],
    networkMode: 'always',
  });
  const [kept, setKept] = useState<Bundle | undefined>();
  const [queue, setQueue] = useState<OfflineAction[]>([]);
  const [refused, setRefused] = useState<string[]>([]);
  useEffect(() => {
    if (fresh.data) void saveBundle(fresh.data);
    else if (fresh.error) void loadBundle().then(setKept);
  }, [fresh.data, fresh.error]);
  const refresh = useCallback(() => void pending().then(setQueue), []);
  useEffect(() => {
    let busy = false;
    const sync = async () => {
      if (busy) return;
      busy = true;
      try {
        const actions = await pending();
        setQueue(actions);
        if (actions.length === 0) return;
        const out = await utils.client.checkin.sync.mutate({ actions });
        await settle(out.results.map((r) => r.clientId));
        const no = out.results.filter((r) => r.status === 'refused').map((r) => r.message ?? 'Refused.');
        if (no.length) setRefused((r) => [...r, ...no]);
        setQueue(await pending());
        await Promise.all([utils.checkin.offlineBundle.invalidate(), utils.checkin.roster.invalidate()]);
      } catch {
        // Still no network: tried again shortly.
      } finally {
        busy = false;
      }
    };
    void sync();
    const timer = setInterval(() => void sync(), SYNC_EVERY_MS);
    const online = () => void sync();
    window.addEventListener('online', online);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', online);
    };
  }, [utils]);
  return { bundle: fresh.data ?? kept, queue, refused, refresh };
}

/** 'A new family and 2 check-ins are': what the queue holds, in words. */
export function waitingWords(queue: OfflineAction[]): string {
  const count = (kind: OfflineAction['kind']) => queue.filter((a) => a.kind === kind).length;
  const parts = (
    [
      [count('add_family'), 'new family', 'new families'],
      [count('check_in'), 'check-in', 'check-ins'],
      [count('check_out'), 'pickup', 'pickups'],
    ] as const
  )
    .filter(([n]) => n > 0)
    .map(([n, one, many]) => (n === 1 ? `1 ${one}` : `${n} ${many}`));
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '');
  return `${list} ${queue.length === 1 ? 'is' : 'are'}`;
}
