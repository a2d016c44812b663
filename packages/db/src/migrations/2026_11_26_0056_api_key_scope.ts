import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
export async function up(db: Kysely<any>): Promise<void> {
  // What an API key may do (issue 27 §9): 'read' (GET only) or 'write' (read and write). Keys made
  // before scopes existed keep read and write.
  await db.schema
    .alterTable('api_keys')
    .addColumn('scope', 'text', (c) =>
      c
        .notNull()
        .defaultTo('write')
        .check(sql`scope in ('read', 'write')`),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('scope').execute();
}
