/**
 * The app in a bench's process with the test configuration: what the benches' own processes start
 * (bench/lib/api-process-main.ts, worker-process-main.ts), apart from lib/api-load.ts, whose test
 * helpers (vitest's) a compiled bench process does without.
 */
import type { Db } from '@lampstand/db';
import { loadConfig } from '../../src/config.js';
import { createServer } from '../../src/server.js';
import { startRuntime } from '../../src/app-deps.js';

export const SESSION_SECRET = 'bench-session-secret-0123456789abcdefghij';
export const BENCH_SECRETS_KEY = 'YmVuY2gtc2VjcmV0cy1rZXktMzItYnl0ZXMtbG9uZyE';

/**
 * The app in this process (test config, workers off, the benches' session secret) for setting up
 * churches before the measured server starts: sessions made here stay valid there.
 */
export async function startSetupServer(databaseUrl: string, db: Db): Promise<{ url: string; stop(): Promise<void> }> {
  const config = {
    // The measured server's key: secrets sealed here (a church's texting credentials) open there.
    ...loadConfig({ NODE_ENV: 'test', SECRETS_KEY: BENCH_SECRETS_KEY }),
    port: 0,
    host: '127.0.0.1',
    databaseUrl,
    logLevel: 'silent',
    sessionSecret: SESSION_SECRET,
  };
  const runtime = await startRuntime(config, db, databaseUrl, { work: false });
  const server = await createServer(config, runtime.deps);
  const url = await server.start();
  return {
    url,
    async stop() {
      await server.stop();
      await runtime.close();
    },
  };
}
