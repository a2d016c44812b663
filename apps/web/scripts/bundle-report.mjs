// Prints the gzipped JavaScript each route loads, from Vite's manifest (dist/.vite/manifest.json):
// the entry (index.html's script and its static imports, what every screen pays before the router
// runs), then, per lazily loaded screen (and the lazily loaded staff shell, shell/app-layout), what
// it adds on top. The staff app's first load is the entry plus the shell plus the dashboard (the
// screen after sign-in), each file counted once. Run after `vite build` (the build script
// does); then a visitor's first load of a Show Up project (the public frame and the project page), and
// the check-in station's (its own entry, station.html). `--check` exits non-zero when the staff
// app's first load passes FIRST_LOAD_LIMIT_KB or the station's STATION_LIMIT_KB.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

export const FIRST_LOAD_LIMIT_KB = 250;
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');

/**
 * The files a manifest entry loads before it runs: itself and its static imports, transitively;
 * with `dynamic`, also every part it may load later (its dynamic imports, theirs, …) and the style
 * sheets and assets of all of them. The station's service worker keeps the latter (station-worker.ts).
 */
export function manifestClosure(manifest, key, { dynamic = false } = {}, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  if (dynamic) for (const f of [...(chunk.css ?? []), ...(chunk.assets ?? [])]) seen.add(f);
  for (const dep of [...(chunk.imports ?? []), ...(dynamic ? (chunk.dynamicImports ?? []) : [])])
    manifestClosure(manifest, dep, { dynamic }, seen);
  return seen;
}

/** The check-in station's own entry (station.html): its first load has its own target. */
export const STATION_LIMIT_KB = 150;

export function bundleReport() {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
  const gz = new Map();
  const gzipped = (file) => {
    if (!gz.has(file)) gz.set(file, zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length);
    return gz.get(file);
  };
  const closure = (key) => manifestClosure(manifest, key);
  const sum = (files) => [...files].filter((f) => f.endsWith('.js')).reduce((s, f) => s + gzipped(f), 0);
  const entryKey = 'index.html';
  const first = closure(entryKey);
  const routes = Object.entries(manifest)
    .filter(([, c]) => c.isDynamicEntry && /^src\/(features|shell)\//.test(c.src ?? ''))
    .map(([key, c]) => {
      const own = [...closure(key)].filter((f) => !first.has(f));
      return { route: c.src.replace(/^src\/(features\/)?/, '').replace(/\.tsx?$/, ''), kb: sum(own) / 1024 };
    })
    .sort((a, b) => b.kb - a.kb);
  const key = (src) => Object.keys(manifest).find((k) => k.endsWith(src));
  const staff = new Set([
    ...first,
    ...closure(key('shell/app-layout.tsx')),
    ...closure(key('features/dashboard/dashboard-page.tsx')),
  ]);
  // A donor opening a project from a link: Show Up's public frame and the project page.
  const showUp = new Set([
    ...first,
    ...closure(key('features/show-up/show-up-shell.tsx')),
    ...closure(key('features/show-up/detail-page.tsx')),
  ]);
  // A check-in station (a kiosk, a teacher's tablet): its own build and manifest (station-worker.ts),
  // nothing of the staff app's.
  const stationManifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'station-manifest.json'), 'utf8'));
  const station = manifestClosure(stationManifest, 'station.html');
  // A room station (and a manned one picking up) loads the room's roster at once too.
  const stationRoom = new Set([
    ...station,
    ...manifestClosure(stationManifest, 'src/features/checkin/station-room.tsx'),
  ]);
  return {
    entryKb: sum(first) / 1024,
    entryFiles: first.size,
    firstLoadKb: sum(staff) / 1024,
    showUpProjectKb: sum(showUp) / 1024,
    stationKb: sum(station) / 1024,
    stationRoomKb: sum(stationRoom) / 1024,
    stationAllKb: sum(manifestClosure(stationManifest, 'station.html', { dynamic: true })) / 1024,
    routes,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = bundleReport();
  console.log(`\nJavaScript per route, gzipped (level 9)`);
  const line = (label, kb) => console.log(label.padEnd(58) + `${kb.toFixed(1).padStart(7)} KB`);
  line(`entry (index.html's script + static imports, ${r.entryFiles} files)`, r.entryKb);
  for (const x of r.routes) line(`  + ${x.route}`, x.kb);
  const ok = r.firstLoadKb <= FIRST_LOAD_LIMIT_KB;
  line('staff app first load (entry + shell + dashboard)', r.firstLoadKb);
  console.log(`target ≤ ${FIRST_LOAD_LIMIT_KB} KB: ${ok ? 'met' : 'MISSED'}`);
  line('Show Up project, a visitor (entry + Show Up shell + project)', r.showUpProjectKb);
  const stationOk = Math.max(r.stationKb, r.stationRoomKb) <= STATION_LIMIT_KB;
  line('check-in station first load (station.html + static imports)', r.stationKb);
  line('  a room station (+ the room roster)', r.stationRoomKb);
  console.log(`target ≤ ${STATION_LIMIT_KB} KB: ${stationOk ? 'met' : 'MISSED'}`);
  line('  with every part it may load (kept by its service worker)', r.stationAllKb);
  if (process.argv.includes('--check') && (!ok || !stationOk)) process.exit(1);
}
