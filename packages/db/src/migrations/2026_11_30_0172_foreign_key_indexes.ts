import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// An index for each foreign key that had none led by its own columns. Deleting a row makes
// PostgreSQL find the rows whose key names it (to cascade, set null or refuse), by those columns;
// without such an index that is a scan of the whole table, every church's rows, once per row
// deleted. A person deleted (or merged away) scanned all of `deliveries`, `tasks`, `team_members`
// and more; undoing an import of 50,000 people did so 50,000 times; a campaign's deliveries
// deleted scanned `outbox_messages` once each. Each index is on the key's own column (a composite
// key's church column aside: the other column is the selective one) and, where the column may be
// empty, leaves the empty rows out. `foreign-key-indexes.test.ts` keeps it so for new tables.

/** Table and column of each foreign key without an index led by it (the church's `users` aside). */
const KEYS: [table: string, column: string][] = [
  ['calendar_answers', 'attendee_id'],
  ['calendar_attendees', 'ticket_type_id'],
  ['calendar_registrations', 'contact_id'],
  ['calendar_registrations', 'discount_code_id'],
  ['checkin_note_reads', 'child_id'],
  ['checkin_offline_families', 'station_id'],
  ['checkin_stations', 'room_id'],
  ['checkins', 'checked_in_by_station'],
  ['checkins', 'checked_out_by_station'],
  ['checkins', 'room_id'],
  ['checkins', 'service_id'],
  ['children_in_lists', 'child_id'],
  ['contact_children', 'group_id'],
  ['contact_family_links', 'contact1_id'],
  ['contact_imports', 'list_id'],
  ['conversation_messages', 'inbound_message_id'],
  ['deliveries', 'contact_id'],
  ['deliveries', 'substitute_offer_id'],
  ['email_bounces', 'delivery_id'],
  ['email_suppressions', 'delivery_id'],
  ['gift_renewals', 'import_id'],
  ['gift_schedules', 'contact_id'],
  ['group_messages', 'sender_contact_id'],
  ['imports', 'preset_id'],
  ['landing_page_signups', 'contact_id'],
  ['landing_page_signups', 'list_id'],
  ['marketing_packages', 'email_template_id'],
  ['marketing_packages', 'landing_page_template_id'],
  ['marketing_packages', 'print_template_id'],
  ['marketing_packages', 'sms_template_id'],
  ['outbox_messages', 'delivery_id'],
  ['service_items', 'service_item_type_id'],
  ['service_plan_assignments', 'position_id'],
  ['service_plan_assignments', 'service_item_id'],
  ['sms_keywords', 'journey_id'],
  ['sms_keywords', 'list_id'],
  ['substitute_offer_candidates', 'team_member_id'],
  ['substitute_offers', 'filled_assignment_id'],
  ['substitute_offers', 'service_plan_id'],
  ['tasks', 'assignee_contact_id'],
  ['tasks', 'contact_id'],
  ['tasks', 'enrollment_id'],
  ['tasks', 'journey_id'],
  ['team_member_positions', 'position_id'],
  ['team_members', 'contact_id'],
  ['user_templates', 'package_id'],
  ['user_templates', 'template_id'],
];

const indexName = (table: string, column: string) => `${table}_${column}_fk_idx`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, column] of KEYS) {
    const { rows } = await sql<{ nullable: boolean }>`
      select not attnotnull as nullable from pg_attribute
      where attrelid = ${table}::regclass and attname = ${column}`.execute(db);
    const where = rows[0]!.nullable ? sql` where ${sql.ref(column)} is not null` : sql``;
    await sql`create index ${sql.ref(indexName(table, column))} on ${sql.table(table)} (${sql.ref(column)})${where}`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, column] of KEYS) await sql`drop index if exists ${sql.ref(indexName(table, column))}`.execute(db);
}
