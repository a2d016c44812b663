import fs from 'node:fs';
import path from 'node:path';
import { connectDatabase } from '@lampstand/db';
import { loadConfig } from '../config.js';
import { backupDatabase } from './backup.js';

// pnpm db:backup [file]: a pg_dump custom-format archive (default backups/lampstand-<time>.dump).
// Works with DATABASE_URL or the embedded database (started for the dump).
const config = loadConfig();
const file = path.resolve(
  process.env.INIT_CWD ?? process.cwd(),
  process.argv[2] ?? `backups/lampstand-${new Date().toISOString().replace(/[:.]/g, '-')}.dump`,
);
fs.mkdirSync(path.dirname(file), { recursive: true });
const database = await connectDatabase({
  databaseUrl: config.databaseUrl,
  databaseOwnerUrl: config.databaseOwnerUrl,
  dataDir: config.dataDir,
  embeddedPort: config.embeddedPgPort,
  migrate: false,
});
try {
  await backupDatabase(database.ownerUrl ?? database.url, file);
  console.log(`Backup written to ${file}`);
} finally {
  await database.close();
}
