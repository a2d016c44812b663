import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const api = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
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
    sourcemap: true,
    // dist/.vite/manifest.json: scripts/bundle-report.mjs prints the JS each route loads from it.
    manifest: true,
    chunkSizeWarningLimit: 1500,
  },
});
