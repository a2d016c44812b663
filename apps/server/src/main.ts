import { connectDatabase } from '@lampstand/db';
import { checkRowSecurity } from './row-security.js';
import { installKeyring, loadConfig } from './config.js';
import { createLogger, jobLog } from './logger.js';
import { createServer } from './server.js';
import { startRuntime } from './app-deps.js';
import { lowerHelperThreadsPriority } from './priority.js';

async function main(): Promise<void> {
  const config = loadConfig();
  installKeyring(config);
  const log = (line: string) => console.log(line);
  // The event loop keeps its priority; every other thread of the process (V8's helpers, which collect
  // the move-in previews' thread's garbage, and libuv's pool) takes the background work's (src/priority.ts).
  if (config.workerNice > 0 && lowerHelperThreadsPriority(config.workerNice) === null)
    log(`[lampstand] could not lower the priority of the API's helper threads to ${config.workerNice}`);
  if (!config.databaseUrl) log(`[lampstand] No DATABASE_URL: starting embedded PostgreSQL (data in ${config.dataDir})`);
  const database = await connectDatabase({
    databaseUrl: config.databaseUrl,
    databaseOwnerUrl: config.databaseOwnerUrl,
    dataDir: config.dataDir,
    embeddedPort: config.embeddedPgPort,
    rls: config.rls,
    poolMax: config.dbPoolMax,
    pooler: config.databasePooler,
    // Reads that may lag go to the replicas (the HTTP side only: workers read and write the primary).
    readUrls: config.databaseReadUrls,
    log: process.env.LOG_LEVEL === 'debug' ? (l) => console.log(`[postgres] ${l}`) : undefined,
  });
  const rls = await checkRowSecurity(database, config);
  if (rls) log(rls);
  const runtime = await startRuntime(config, database.db, database.url, {
    log: jobLog(createLogger(config.logLevel)),
    queueUrl: database.ownerUrl,
  });
  if (config.runWorkers) await runtime.runner.sweep();
  const server = await createServer(config, runtime.deps);
  await server.start();
  console.log(`[lampstand] Open ${config.publicUrl}`);
  if (!config.openaiApiKey && !config.openaiBaseUrl)
    log('[lampstand] AI writing is off: set OPENAI_API_KEY (or OPENAI_BASE_URL for a self-hosted model) to turn it on');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[lampstand] ${signal}: finishing requests and shutting down`);
    const force = setTimeout(() => {
      console.error('[lampstand] shutdown took too long; exiting');
      process.exit(1);
    }, 15_000);
    force.unref();
    try {
      await server.stop();
      await runtime.close();
      await database.close();
      process.exit(0);
    } catch (err) {
      console.error('[lampstand] error during shutdown', err);
      process.exit(1);
    }
  };
  // PostgreSQL (when embedded) is stopped last, after the requests and jobs finish.
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  console.error('[lampstand] failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
