/**
 * The API process of bench/lib/api-process.ts: the app (test configuration, no workers) on
 * BENCH_DATABASE_URL; prints its address as one JSON line and stops on SIGTERM.
 */
import { createDb } from '@lampstand/db';
import { startSetupServer } from './api-load.js';

const databaseUrl = process.env.BENCH_DATABASE_URL!;
const db = createDb(databaseUrl, { max: 4 });
const server = await startSetupServer(databaseUrl, db);
console.log(JSON.stringify({ url: server.url }));
process.once('SIGTERM', () => {
  void (async () => {
    await server.stop();
    await db.destroy();
    process.exit(0);
  })();
});
