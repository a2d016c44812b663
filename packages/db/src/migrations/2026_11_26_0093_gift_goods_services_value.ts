import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Issue 30 §8: a gift that says what the donor received for it (a dinner ticket) gives the value
// of it too (whole cents, at most the gift), so the statement can name it and its value instead of
// the sentence 'No goods or services were provided…'. A statement whose donor's email address is
// suppressed is not emailed: it goes in the PDF to print, as for a donor without an email.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table gifts add column goods_services_cents integer
    constraint gifts_goods_services_cents_range check (goods_services_cents between 0 and amount_cents)`.execute(db);
  await sql`alter table giving_statements add column email_suppressed boolean not null default false`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table giving_statements drop column email_suppressed`.execute(db);
  await sql`alter table gifts drop column goods_services_cents`.execute(db);
}
