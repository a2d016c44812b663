/* global self, caches */
// The check-in station's service worker, served as /station-sw.js with the scope /station: the
// station's entry registers it (never the staff app). The build (station-worker.ts) fills in the
// files to keep, read from Vite's manifest (the station's entry and every part it may load), and a
// version made from them: a new deploy is a new worker, which keeps the new files and drops the
// old ones.
//
// What it serves: the station's page network-first (a deploy is picked up at once; without the
// network, the kept copy), and the build's hashed files cache-first (their names change with their
// content). It never answers the API (/api, /trpc): those go to the network as if it were not
// there, so no answer of the server — a staff member's or a station's — is ever kept here; the
// station keeps its own offline data in IndexedDB.

const VERSION = self.__STATION_VERSION__;
const FILES = self.__STATION_FILES__;
const CACHE = `lampstand-station-${VERSION}`;
const PAGE = '/station';
/** How long the page waits for the network before the kept copy answers (a network that hangs). */
const PAGE_TIMEOUT_MS = 4000;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll([PAGE, ...FILES]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k.startsWith('lampstand-station-') && k !== CACHE).map((k) => caches.delete(k))),
      )
      .then(() => self.clients.claim()),
  );
});

async function pageNetworkFirst(request) {
  const cache = await caches.open(CACHE);
  const network = fetch(request).then(async (res) => {
    if (res.ok) await cache.put(PAGE, res.clone());
    return res;
  });
  network.catch(() => {});
  try {
    const first = await Promise.race([network, new Promise((resolve) => setTimeout(resolve, PAGE_TIMEOUT_MS, null))]);
    if (first) return first;
    return (await cache.match(PAGE)) ?? (await network);
  } catch (err) {
    const kept = await cache.match(PAGE);
    if (kept) return kept;
    throw err;
  }
}

async function assetCacheFirst(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const res = await fetch(request);
  // Kept as fetched: a file of this build the list above did not name (the same version's cache).
  if (res.ok) await cache.put(request, res.clone());
  return res;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/trpc/')) return;
  if (request.mode === 'navigate') {
    if (url.pathname === PAGE) event.respondWith(pageNetworkFirst(request));
    return;
  }
  if (url.pathname.startsWith('/assets/') || FILES.includes(url.pathname)) event.respondWith(assetCacheFirst(request));
});
