import type { Kysely } from 'kysely';
import { rawSql } from '../raw-sql.js';
import { resealSecrets, type SecretColumn } from '../secrets.js';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Secrets at rest: the DKIM private keys, the outgoing and social webhooks' signing
// secrets and the app's own secrets (session, tracking, demo Stripe webhook, visit salts) were
// stored in clear, so a leaked backup signed mail as a church's domain and forged its webhooks.
// This seals every existing value with AES-256-GCM under SECRETS_KEY (packages/db/src/secrets.ts);
// the code seals what it writes from now on. The columns are listed here as they were when this
// migration was written (the live list, SECRET_COLUMNS, may grow with later tables).
const COLUMNS: SecretColumn[] = [
  { table: 'sending_domains', key: 'id', column: 'dkim_private_key' },
  { table: 'webhook_endpoints', key: 'id', column: 'secret' },
  { table: 'webhook_endpoints', key: 'id', column: 'previous_secret' },
  { table: 'social_settings', key: 'user_id', column: 'webhook_secret' },
  {
    table: 'app_settings',
    key: 'key',
    column: 'value',
    keyLike: ['session_secret', 'tracking_secret', 'stripe_demo_webhook_secret', 'visit_salt:%'],
  },
];

export async function up(db: Kysely<any>): Promise<void> {
  await resealSecrets(rawSql(db), { columns: COLUMNS });
}

// Sealed values stay sealed: the code that reads them opens them.
export async function down(): Promise<void> {}
