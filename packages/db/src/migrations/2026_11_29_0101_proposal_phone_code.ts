import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// A portal change of email and phone together was confirmed by the email link alone,
// and the new phone went to staff unconfirmed. Each channel now has its own proof: the email's link
// (`confirm_token_hash`, as before) and the phone's texted code (`phone_code_hash`); the proposal
// reaches staff ('pending') only when both are used. A phone-only proposal waiting for its code
// moves its hash to the new column.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table profile_update_proposals add column phone_code_hash text`.execute(db);
  await sql`
    update profile_update_proposals
       set phone_code_hash = confirm_token_hash, confirm_token_hash = null
     where status = 'unconfirmed' and changes ? 'phone' and not changes ? 'email'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    update profile_update_proposals
       set confirm_token_hash = coalesce(confirm_token_hash, phone_code_hash)
     where status = 'unconfirmed'`.execute(db);
  await sql`alter table profile_update_proposals drop column phone_code_hash`.execute(db);
}
