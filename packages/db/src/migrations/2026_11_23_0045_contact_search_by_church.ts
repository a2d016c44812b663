import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
// Contact search is always within one church: a GIN index led by user_id (btree_gin) finds the
// church's matching rows inside the index, where the trigram-only index first gathered every
// church's matches for the fragment (100,000+ rows for 'smi' at 1,000 churches) and then ANDed
// them with the church's rows. The old index had no other user; it is dropped.
const SEARCH_DOC = sql`lower(first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' ' || coalesce(phone, '') || ' ' || coalesce(phone_e164, ''))`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists btree_gin`.execute(db);
  await sql`create index contacts_user_search_trgm_idx on contacts using gin (user_id, (${SEARCH_DOC}) gin_trgm_ops)`.execute(
    db,
  );
  await sql`drop index contacts_search_trgm_idx`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index contacts_search_trgm_idx on contacts using gin ((${SEARCH_DOC}) gin_trgm_ops)`.execute(db);
  await sql`drop index contacts_user_search_trgm_idx`.execute(db);
}
