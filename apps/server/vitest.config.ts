import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    // A test that hangs still fails; one that is slow on a busy 2-core CI machine (30 s was passed by
    // heavy tests there on 2026-11-30) does not.
    testTimeout: 60_000,
    // expect.poll waits 1 s by default: a worker's send on a loaded 2-core machine can take longer, and
    // a CI machine ran 2.5 times slower than a quiet one on 2026-11-30: 30 s, not 15.
    expect: { poll: { timeout: 30_000 } },
    hookTimeout: 120_000,
    // Files share a worker's loaded modules (each still has its own app and database): importing
    // the server again for every file took most of the suite's time. Module state must therefore
    // not outlive an app: caches keyed by database ids live on the app's objects (docs/developing.md).
    isolate: false,
    // Three files at a time, on any machine (vitest's default is one fewer than the cores: one on CI's
    // two). A file here spends most of its time waiting on its app, PostgreSQL and the loopback
    // peers, so more files use the cores the others leave idle: with two, CI's whole run used 1.6 of
    // its 2 cores and ended with the server's files alone (docs/ci-history.md). Each file's app keeps
    // its pools small (DB_POOL_MAX), so three at a time stay under the shared PostgreSQL's 100
    // connections.
    maxWorkers: 3,
  },
});
