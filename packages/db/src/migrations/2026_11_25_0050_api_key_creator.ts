import { type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
export async function up(db: Kysely<any>): Promise<void> {
  // Who made each API key (issue 24 §8): shown in Settings → API keys. Keys made before this was
  // recorded have none; an account that is deleted leaves its keys' creator unknown.
  await db.schema
    .alterTable('api_keys')
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('created_by_user_id').execute();
}
