import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// `GET /api/groups/attendance` answers up to 5,000 meetings a page, each with who came. Looking up
// each meeting's rows of `group_attendance` was half of the statement (one index probe and one
// aggregate per meeting: ~30 ms a page on a quiet machine, `pnpm bench:groups`). Each meeting now
// also keeps who came as one sorted array, `present_ids`, so the page is read from the meetings
// alone. `group_attendance` stays the record (one row per person and meeting: the statistics, the
// journeys' 'missed' trigger and the export read it); statement-level triggers on it rewrite the
// array of every meeting a statement touched, in the same transaction, so the two never disagree
// (attendance replaced, a contact deleted, a church moved in).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table group_meetings add column present_ids integer[] not null default '{}'`.execute(db);
  await sql`
    update group_meetings m set present_ids = a.ids
    from (select meeting_id, array_agg(contact_id order by contact_id) as ids from group_attendance group by meeting_id) a
    where a.meeting_id = m.id`.execute(db);
  await sql`
    create function group_meeting_present_ids() returns trigger language plpgsql as $$
    declare
      changed integer[];
    begin
      if tg_op = 'INSERT' then
        changed := array(select distinct meeting_id from new_rows);
      elsif tg_op = 'DELETE' then
        changed := array(select distinct meeting_id from old_rows);
      else
        changed := array(select meeting_id from new_rows union select meeting_id from old_rows);
      end if;
      update group_meetings m set present_ids = p.ids
      from (
        select c.id, array(select a.contact_id from group_attendance a where a.meeting_id = c.id order by a.contact_id) as ids
        from unnest(changed) as c(id)
      ) p
      where m.id = p.id and m.present_ids is distinct from p.ids;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger group_attendance_present_in after insert on group_attendance
    referencing new table as new_rows for each statement execute function group_meeting_present_ids()`.execute(db);
  await sql`
    create trigger group_attendance_present_out after delete on group_attendance
    referencing old table as old_rows for each statement execute function group_meeting_present_ids()`.execute(db);
  await sql`
    create trigger group_attendance_present_changed after update on group_attendance
    referencing old table as old_rows new table as new_rows for each statement execute function group_meeting_present_ids()`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger group_attendance_present_in on group_attendance`.execute(db);
  await sql`drop trigger group_attendance_present_out on group_attendance`.execute(db);
  await sql`drop trigger group_attendance_present_changed on group_attendance`.execute(db);
  await sql`drop function group_meeting_present_ids()`.execute(db);
  await sql`alter table group_meetings drop column present_ids`.execute(db);
}
