// One embedded PostgreSQL for a whole test run (`npm test` without TEST_DATABASE_URL): started
// once here instead of once per package's test run, which made several servers at once on a
// two-core machine. Prints `url=<connection url>` when it answers, and stops (its files deleted)
// when its standard input closes or on SIGTERM/SIGINT.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../src/embedded.js';
import { TEST_SERVER_SETTINGS } from '../src/testing.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lampstand-test-pg-'));
fs.chmodSync(dir, 0o777);
const server = await startEmbeddedPostgres({
  dataDir: path.join(dir, 'data'),
  port: 0,
  persistent: false,
  settings: TEST_SERVER_SETTINGS,
});
let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.on('close', () => void stop());
process.stdin.resume();
console.log(`url=${server.url}`);
