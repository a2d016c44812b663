import { connectDatabase } from '@lampstand/db';
import { installKeyring, loadConfig } from '../config.js';

const config = loadConfig();
installKeyring(config);
const database = await connectDatabase({
  databaseUrl: config.databaseUrl,
  databaseOwnerUrl: config.databaseOwnerUrl,
  dataDir: config.dataDir,
  embeddedPort: config.embeddedPgPort,
  migrate: false,
});
try {
  const { migrateToLatest } = await import('@lampstand/db');
  const result = await migrateToLatest(database.db);
  const applied = result.results?.filter((r) => r.status === 'Success') ?? [];
  console.log(applied.length ? applied.map((r) => `applied ${r.migrationName}`).join('\n') : 'Database is up to date.');
} finally {
  await database.close();
}
