import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compressAssets } from './compress-assets.ts';

const api = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), compressAssets()],
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
  },
});
