import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
// The log of contact merges: which contact was kept, a snapshot of the one merged into it (its
// row is deleted) and what was moved, so a merge can be explained and undone by hand.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('contact_merges')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kept_contact_id', 'integer', (c) => c.references('contacts.id').onDelete('set null'))
    .addColumn('merged_contact_id', 'integer', (c) => c.notNull())
    .addColumn('merged_contact', 'jsonb', (c) => c.notNull())
    .addColumn('moved', 'jsonb', (c) => c.notNull())
    .addColumn('merged_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('contact_merges_kept_idx').on('contact_merges').column('kept_contact_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('contact_merges').execute();
}
