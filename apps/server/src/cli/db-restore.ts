import path from 'node:path';
import { connectDatabase, ensureAppRole } from '@lampstand/db';
import { loadConfig } from '../config.js';
import { restoreDatabase } from './backup.js';

// pnpm db:restore <file>: replaces the database's contents with a pg_dump archive. Stop the
// servers and workers first.
const config = loadConfig();
if (!process.argv[2]) {
  console.error('Usage: pnpm db:restore <file.dump>');
  process.exit(1);
}
const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[2]);
const database = await connectDatabase({
  databaseUrl: config.databaseUrl,
  databaseOwnerUrl: config.databaseOwnerUrl,
  dataDir: config.dataDir,
  embeddedPort: config.embeddedPgPort,
  migrate: false,
});
try {
  await restoreDatabase(database.ownerUrl ?? database.url, file);
  await ensureAppRole(database.db); // the archive holds no grants (--no-privileges)
  console.log(`Restored ${file}`);
} finally {
  await database.close();
}
