import type { Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
// The pg-boss job that publishes a scheduled post at its time, so deleting or moving the post
// cancels that job instead of leaving it to wake up and find nothing.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('social_posts').addColumn('publish_job_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('social_posts').dropColumn('publish_job_id').execute();
}
