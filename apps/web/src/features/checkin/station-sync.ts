import { useCallback, useEffect, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { loadBundle, pending, saveBundle, settle, type Bundle } from './station-offline';

/** How often a station tries to send what it did offline, and refreshes its bundle. */
const SYNC_EVERY_MS = 10_000;
const BUNDLE_EVERY_MS = 5 * 60_000;

/**
 * A self or manned station's offline side: today's bundle (fresh from the server, else the copy
 * kept in IndexedDB), how many offline check-ins wait to be sent, and the sync that sends them
 * when the network returns (at once on the browser's 'online', and every 10 s).
 */
export function useStationOffline(): {
  bundle: Bundle | undefined;
  waiting: number;
  refused: string[];
  refresh: () => void;
} {
  const utils = trpc.useUtils();
  const fresh = trpc.checkin.offlineBundle.useQuery(undefined, {
    retry: false,
    refetchInterval: BUNDLE_EVERY_MS,
    networkMode: 'always',
  });
  const [kept, setKept] = useState<Bundle | undefined>();
  const [waiting, setWaiting] = useState(0);
  const [refused, setRefused] = useState<string[]>([]);
  useEffect(() => {
    if (fresh.data) void saveBundle(fresh.data);
    else if (fresh.error) void loadBundle().then(setKept);
  }, [fresh.data, fresh.error]);
  const refresh = useCallback(() => void pending().then((q) => setWaiting(q.length)), []);
  useEffect(() => {
    let busy = false;
    const sync = async () => {
      if (busy) return;
      busy = true;
      try {
        const actions = await pending();
        setWaiting(actions.length);
        if (actions.length === 0) return;
        const out = await utils.client.checkin.sync.mutate({ actions });
        await settle(out.results.map((r) => r.clientId));
        const no = out.results.filter((r) => r.status === 'refused').map((r) => r.message ?? 'Refused.');
        if (no.length) setRefused((r) => [...r, ...no]);
        setWaiting((await pending()).length);
        await utils.checkin.offlineBundle.invalidate();
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
  return { bundle: fresh.data ?? kept, waiting, refused, refresh };
}
