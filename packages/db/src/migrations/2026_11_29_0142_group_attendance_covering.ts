import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// `GET /api/groups/attendance` reads, for each meeting of a page, who came: one look-up of
// `group_attendance` by meeting. The church row policy checks each row's `user_id`, which the
// unique index on (meeting_id, contact_id) did not hold, so every row was fetched from the table
// (5,000 meetings: ~270 ms). The same unique key as an index that also carries `user_id` answers
// from the index alone (~30 ms, `pnpm bench:groups`).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create unique index group_attendance_meeting_contact_key on group_attendance (meeting_id, contact_id)
    include (user_id)`.execute(db);
  await sql`alter table group_attendance drop constraint group_attendance_meeting_id_contact_id_key`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    alter table group_attendance add constraint group_attendance_meeting_id_contact_id_key
    unique (meeting_id, contact_id)`.execute(db);
  await sql`drop index group_attendance_meeting_contact_key`.execute(db);
}
