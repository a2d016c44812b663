import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
export async function up(db: Kysely<any>): Promise<void> {
  // When an import last showed life (queued, a batch committed): a church runs a limited number of
  // imports at once, and one whose worker died long ago no longer counts against that limit.
  await db.schema.alterTable('contact_imports').addColumn('progress_at', 'timestamptz').execute();
  await sql`create index contact_imports_active_idx on contact_imports (user_id) where status in ('queued', 'running')`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index contact_imports_active_idx`.execute(db);
  await db.schema.alterTable('contact_imports').dropColumn('progress_at').execute();
}
