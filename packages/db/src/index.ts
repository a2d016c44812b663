export { createDb, parseTimestamptz, type Db, type CreateDbOptions } from './client.js';
export { startEmbeddedPostgres, freePort, type EmbeddedDatabase } from './embedded.js';
export { migrateToLatest, pendingMigrations } from './migrate.js';
export { withStartupLock } from './startup-lock.js';
export { ensureAppRole } from './app-role.js';
export {
  APP_ROLE,
  tenantDb,
  bypassDb,
  ownerDb,
  plainDb,
  refreshStatistics,
  scopedDb,
  rlsStatus,
  rowSecurity,
  databaseKey,
  readDb,
  primaryDb,
  hasReplicas,
  leasedDb,
  actingDb,
  type Scope,
} from './tenancy.js';
export { actorOf, type Actor } from './acting.js';
export { preparedStatement } from './prepared.js';
export { connectDatabase, ensureDatabase, type DatabaseHandle, type ConnectOptions } from './connect.js';
export * from './schema.js';
export { sql } from 'kysely';
export { getOrCreateSetting, randomSecret } from './settings.js';
export {
  activeKeyring,
  isSealed,
  keyringFrom,
  newSecretKey,
  openSecret,
  openSecretOrNull,
  resealSecrets,
  sealSecret,
  secretKeyInDataDir,
  TEST_SECRETS_KEY,
  useKeyring,
  SECRET_COLUMNS,
  type SecretColumn,
  type Keyring,
} from './secrets.js';
