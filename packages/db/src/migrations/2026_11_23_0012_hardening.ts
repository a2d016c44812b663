import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
export async function up(db: Kysely<any>): Promise<void> {
  // Counters for throttling (login per username + address and per address, registration per
  // address): one row per key, counted and decided in one locked step so that concurrent requests
  // and several server instances share them.
  await db.schema
    .createTable('rate_limit_buckets')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('window_start', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('next_allowed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('rate_limit_buckets_window_idx')
    .on('rate_limit_buckets')
    .column('window_start')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limit_buckets').execute();
}
