import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Issue 30 §7: a committed batch's line is corrected by reversing it (a bounced check, a line
// entered twice): the gift is refunded (off every total) with the reason, which its batch shows.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table gifts add column reversal_reason text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table gifts drop column reversal_reason`.execute(db);
}
