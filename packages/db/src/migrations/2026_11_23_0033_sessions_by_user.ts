import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
// A password change signs out the account's other sessions: find them by the user id inside `sess`.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index sessions_user_id_idx on sessions ((sess->>'userId'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index sessions_user_id_idx`.execute(db);
}
