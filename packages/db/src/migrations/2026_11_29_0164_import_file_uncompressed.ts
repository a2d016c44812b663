import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// An upload's file is kept out of line and not compressed. Compressing a 5 MB donations file (pglz)
// as the upload's row was written took PostgreSQL 150–390 ms of CPU, against 40–50 ms to store it
// as it is, in the burst another church's requests feel; only the background commit reads it back.
// A church's export is a ZIP, already compressed: trying again is wasted work.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table imports alter column csv set storage external`.execute(db);
  await sql`alter table imports alter column archive set storage external`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table imports alter column csv set storage extended`.execute(db);
  await sql`alter table imports alter column archive set storage extended`.execute(db);
}
