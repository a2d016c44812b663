import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compressAssets } from './compress-assets.ts';
import { stationWorker } from './station-worker.ts';

const api = process.env.API_URL ?? 'http://localhost:3000';

const OVERLAY_PARTS =
  /@mantine\/core\/esm\/(components\/(Transition|FocusTrap|Paper|CloseButton|Portal)\/|core\/utils\/(get-default-z-index|create-safe-context)\/)|@mantine\/hooks\/esm\/(use-reduced-motion|use-id|use-window-event)\//;

export default defineConfig({
  plugins: [react(), stationWorker(), compressAssets()],
  server: {
    port: 5173,
    proxy: {
      '/api': api,
      '/trpc': api,
      '/t/': api,
      '/u/': api,
      '/serve/': api,
    },
  },
  build: {
    outDir: 'dist',
    // No source maps in the build: nothing to leak (the server refuses *.map as well).
    sourcemap: false,
    // dist/.vite/manifest.json: scripts/bundle-report.mjs prints the JS each route loads from it.
    manifest: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      output: {
        // Mantine's overlay parts (transitions, focus trap, portal, paper, close button) are shared by
        // the entry's ModalsProvider and the lazily loaded menus, popovers and sheets. Left alone, the
        // bundler gives each its own file once the shell's lazy parts use them too: ten small files
        // that gzip 3-4 KB worse than one. One chunk keeps the staff app's first load within budget.
        manualChunks: (id: string) => (OVERLAY_PARTS.test(id) ? 'overlay' : undefined),
      },
    },
  },
});
