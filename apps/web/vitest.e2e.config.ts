import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files (docs/ci-history.md), started first. Without vitest's cache of the last
 * durations (a clean clone, as CI runs) files go largest in bytes first, and `every-screen`, small
 * but about 55 s, ran last, alone on its worker after the other had finished.
 */
const LONGEST = ['every-screen.e2e.ts', 'service-planner.e2e.ts'];
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST.findIndex((name) => f.moduleId.endsWith(`/${name}`));
      return i === -1 ? LONGEST.length : i;
    };
    const sorted = await super.sort(files);
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}

export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['@lampstand/server/test/global-setup', './e2e/build-web.ts', './e2e/worker-apps.ts'],
    // 60 s was passed by a browser test on a slow, busy CI machine (2026-11-30); a hang still fails.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // expect.poll waits 1 s by default: too short for a redirect on a loaded 2-core machine (seen in a
    // fresh-clone run: the visitor's redirect to /auth came later).
    expect: { poll: { timeout: 30_000 } },
    // Two files at a time. A browser file is mostly waiting (on its page, its app and PostgreSQL: about a
    // third of a core while it runs), and one at a time it was CI's long pole, running alone for its
    // last five minutes (docs/ci-history.md). Connections stay well under the shared PostgreSQL's 100.
    fileParallelism: true,
    maxWorkers: 2,
    // Files share a worker's loaded modules (the server, Playwright, axe), its Chromium, and (unless a
    // file needs one of its own) its app: `startE2E` in e2e/helpers.ts. See apps/server/vitest.config.ts.
    isolate: false,
    sequence: { sequencer: LongestFirst },
  },
});
