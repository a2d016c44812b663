import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// A journey's welcome to a first-time family at children's check-in is an operational message to
// the address the parent gave at the station (who gave no consent to campaigns there): the
// delivery says so, and the contact rule then lets it reach that address unless the person has
// since opted out (docs/contact-rule.md). Only journey deliveries may carry it.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table deliveries
      add column given_at_checkin boolean not null default false,
      add constraint deliveries_given_at_checkin_journey check (not given_at_checkin or kind = 'journey')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table deliveries drop column given_at_checkin`.execute(db);
}
