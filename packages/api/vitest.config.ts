import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['@lampstand/db/test/global-setup'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
