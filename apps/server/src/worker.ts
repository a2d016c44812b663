import { connectDatabase } from '@lampstand/db';
import { checkRowSecurity } from './row-security.js';
import { installKeyring, loadConfig } from './config.js';
import { createLogger, jobLog } from './logger.js';
import { startRuntime } from './app-deps.js';
import { lowerProcessPriority } from './priority.js';

/** Background workers alone, no HTTP: run as many as you like, on any machine that reaches the database. */
async function main(): Promise<void> {
  const config = loadConfig();
  installKeyring(config);
  if (!config.databaseUrl) {
    throw new Error('pnpm worker needs DATABASE_URL (the embedded database belongs to the app process)');
  }
  // WORKER_NICE: below the API's priority, background sends wait for a core, people's requests do not.
  // Every thread of it, V8's helpers too (src/priority.ts).
  if (config.workerNice > 0 && lowerProcessPriority(config.workerNice) === null) {
    console.log(`[lampstand] worker: could not lower its priority to ${config.workerNice}`);
  }
  const database = await connectDatabase({
    databaseUrl: config.databaseUrl,
    databaseOwnerUrl: config.databaseOwnerUrl,
    dataDir: config.dataDir,
    rls: config.rls,
    poolMax: config.dbPoolMax,
    pooler: config.databasePooler,
  });
  const rls = await checkRowSecurity(database, config);
  if (rls) console.log(rls);
  const runtime = await startRuntime(config, database.db, database.url, {
    work: true,
    log: jobLog(createLogger(config.logLevel)),
    queueUrl: database.ownerUrl,
  });
  await runtime.runner.sweep();
  console.log('[lampstand] worker started');
  const shutdown = async () => {
    await runtime.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
}

main().catch((err) => {
  console.error('[lampstand] worker failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
