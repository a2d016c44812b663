import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';
import { manifestClosure } from './scripts/bundle-report.mjs';

/** Where the station's build writes its manifest, beside the staff app's `.vite/manifest.json`. */
export const STATION_MANIFEST = '.vite/station-manifest.json';

/**
 * The check-in station's own page and service worker.
 *
 * Build: once the staff app is built, the station (`station.html`, entry `src/station-main.tsx`) is
 * built into the same `dist` as a build of its own, so it shares no chunk with the staff app (a
 * chunk two entries share carries whatever the bundler merged into it: the station would load
 * parts of the staff app's). Then the worker (`station-worker/sw.js`) is written as
 * `dist/station-sw.js` with the files to keep filled in — from the station's manifest, everything
 * its entry loads or may load later (scripts, style sheets, fonts) — and a version made from
 * those names and the page, so each deploy that changes the station is a new worker that replaces
 * the old cache. Plugin hooks run one after another in their order (vite.config.ts): the
 * compression of the build's files (compress-assets.ts, after this one) covers the station's too.
 *
 * Development: `/station` is answered with station.html, as the server does in production.
 */
export function stationWorker(): Plugin[] {
  let outDir = 'dist';
  let root = '.';
  return [
    {
      name: 'lampstand-station-page',
      apply: 'serve',
      configureServer(server) {
        server.middlewares.use((req, _res, next) => {
          if (req.url === '/station' || req.url?.startsWith('/station?'))
            req.url = `/station.html${req.url.slice('/station'.length)}`;
          next();
        });
      },
    },
    {
      name: 'lampstand-station-worker',
      // Builds only: a dev server (and vitest's) calls closeBundle too when it closes.
      apply: 'build',
      configResolved(config) {
        root = config.root;
        outDir = path.resolve(config.root, config.build.outDir);
      },
      async closeBundle() {
        await build({
          configFile: false,
          root,
          logLevel: 'warn',
          plugins: [react()],
          build: {
            outDir,
            emptyOutDir: false,
            sourcemap: false,
            manifest: STATION_MANIFEST,
            chunkSizeWarningLimit: 1500,
            rollupOptions: { input: { station: path.join(root, 'station.html') } },
          },
        });
        writeWorker(root, outDir);
      },
    },
  ];
}

function writeWorker(root: string, outDir: string): void {
  const manifest = JSON.parse(fs.readFileSync(path.join(outDir, STATION_MANIFEST), 'utf8')) as Parameters<
    typeof manifestClosure
  >[0];
  const files = [...manifestClosure(manifest, 'station.html', { dynamic: true })].map((f) => `/${f}`).sort();
  files.push('/favicon.svg');
  const page = fs.readFileSync(path.join(outDir, 'station.html'));
  const version = crypto.createHash('sha256').update(JSON.stringify(files)).update(page).digest('hex').slice(0, 16);
  const source = fs
    .readFileSync(path.join(root, 'station-worker', 'sw.js'), 'utf8')
    .replace('self.__STATION_VERSION__', JSON.stringify(version))
    .replace('self.__STATION_FILES__', JSON.stringify(files));
  fs.writeFileSync(path.join(outDir, 'station-sw.js'), source);
}
