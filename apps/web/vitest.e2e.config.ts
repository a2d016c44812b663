import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['@lampstand/server/test/global-setup', './e2e/build-web.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // expect.poll waits 1 s by default: too short for a redirect on a loaded 2-core machine (seen in a
    // fresh-clone run: the visitor's redirect to /auth came later).
    expect: { poll: { timeout: 15_000 } },
    // One file at a time: they run beside the unit tests. Two at a time was measured (docs/developing.md):
    // on CI's two cores it saved little (the machine is busy with lint, typecheck and the unit tests)
    // and took the shared PostgreSQL closer to its 100 connections.
    fileParallelism: false,
    maxWorkers: 1,
    // Files share a worker's loaded modules (the server, Playwright, axe): each still starts its own
    // app, database and browser. See apps/server/vitest.config.ts.
    isolate: false,
  },
});
