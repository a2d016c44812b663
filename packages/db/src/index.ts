export { createDb, type Db, type CreateDbOptions } from './client.js';
export { startEmbeddedPostgres, freePort, type EmbeddedDatabase } from './embedded.js';
export { migrateToLatest, pendingMigrations } from './migrate.js';
export { connectDatabase, ensureDatabase, type DatabaseHandle, type ConnectOptions } from './connect.js';
export * from './schema.js';
export { sql } from 'kysely';
export { getOrCreateSetting, randomSecret } from './settings.js';
