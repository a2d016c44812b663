import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// `GET /api/groups/attendance` answers up to 5,000 meetings a page, each with who came, as JSON.
// Reading each meeting's rows of `group_attendance` (one index probe and one aggregate a meeting)
// and then writing each meeting's JSON from its columns (its group's name, the date, the time, the
// ids, the visitors) cost ~30 ms of the database's CPU a page, a year of 500 groups ~180 ms
// (`pnpm bench:groups`).
//
// `group_meeting_rows` keeps each meeting as that read writes it, one row a meeting: its JSON
// (`churchAttendanceRowSchema`'s fields, in its order) with the church, group and date it is paged
// and filtered by. Statement-level triggers write it in the same transaction as the change: a
// meeting added or changed, attendance recorded (or a person's removed with the person), a group
// renamed; a meeting's row goes with the meeting (the foreign key cascades). So a page is read
// from one index in date order and sent as it is. `group_meetings` and `group_attendance` stay the
// record: the export leaves this table out, and a church moved in gets it rebuilt by the same
// triggers as its meetings and attendance are written.
const MEETING_JSON = `'{"meetingId":' || m.id || ',"groupId":' || m.group_id || ',"groupName":' || to_json(g.name)::text
  || ',"date":"' || to_char(m.meets_on, 'YYYY-MM-DD') || '","time":'
  || coalesce('"' || to_char(m.meets_at, 'HH24:MI') || '"', 'null')
  || ',"present":[' || array_to_string(array(select a.contact_id from public.group_attendance a
       where a.meeting_id = m.id order by a.contact_id), ',') || ']'
  || ',"visitors":' || to_json(m.visitors)::text
  || ',"recorded":' || case when m.attendance_recorded_at is null then 'false' else 'true' end || '}'`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table group_meeting_rows (
      meeting_id integer primary key references group_meetings(id) on delete cascade,
      user_id integer not null references users(id) on delete cascade,
      group_id integer not null,
      meets_on date not null,
      json text not null
    )`.execute(db);
  await sql`create index group_meeting_rows_church_date_idx on group_meeting_rows (user_id, meets_on, meeting_id)`.execute(
    db,
  );

  // Write the rows of these meetings afresh (a meeting no longer there has none).
  await sql
    .raw(
      `create function refresh_group_meeting_rows(ids integer[]) returns void language sql as $$
    insert into public.group_meeting_rows (meeting_id, user_id, group_id, meets_on, json)
    select m.id, m.user_id, m.group_id, m.meets_on, ${MEETING_JSON}
    from public.group_meetings m join public.groups g on g.id = m.group_id
    where m.id = any(ids)
    on conflict (meeting_id) do update
      set user_id = excluded.user_id, group_id = excluded.group_id, meets_on = excluded.meets_on, json = excluded.json
      where group_meeting_rows.json is distinct from excluded.json or group_meeting_rows.meets_on <> excluded.meets_on
        or group_meeting_rows.group_id <> excluded.group_id or group_meeting_rows.user_id <> excluded.user_id
  $$`,
    )
    .execute(db);
  // The meetings a statement changed, from its transition tables (one trigger function a table).
  const changed = (table: string, column: string) => `
    create function ${table}_meeting_rows() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform refresh_group_meeting_rows(array(select distinct ${column} from new_rows));
      elsif tg_op = 'DELETE' then
        perform refresh_group_meeting_rows(array(select distinct ${column} from old_rows));
      else
        perform refresh_group_meeting_rows(array(select ${column} from new_rows union select ${column} from old_rows));
      end if;
      return null;
    end $$`;
  await sql.raw(changed('group_meetings', 'id')).execute(db);
  await sql.raw(changed('group_attendance', 'meeting_id')).execute(db);
  await sql
    .raw(
      `create function groups_meeting_rows() returns trigger language plpgsql as $$
    begin
      perform refresh_group_meeting_rows(array(
        select m.id from public.group_meetings m join new_rows n on n.id = m.group_id join old_rows o on o.id = n.id
        where n.name is distinct from o.name));
      return null;
    end $$`,
    )
    .execute(db);
  const trigger = (table: string, event: 'insert' | 'update' | 'delete') => {
    const transition =
      event === 'insert'
        ? 'new table as new_rows'
        : event === 'delete'
          ? 'old table as old_rows'
          : 'old table as old_rows new table as new_rows';
    return sql.raw(`create trigger ${table}_meeting_rows_${event} after ${event} on ${table}
      referencing ${transition} for each statement execute function ${table}_meeting_rows()`);
  };
  await trigger('group_meetings', 'insert').execute(db);
  await trigger('group_meetings', 'update').execute(db);
  await trigger('group_attendance', 'insert').execute(db);
  await trigger('group_attendance', 'update').execute(db);
  await trigger('group_attendance', 'delete').execute(db);
  await trigger('groups', 'update').execute(db);

  await sql`select refresh_group_meeting_rows(array(select id from group_meetings))`.execute(db);

  // Row-level security like every church table (0048).
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  await sql.raw(`alter table group_meeting_rows enable row level security`).execute(db);
  await sql.raw(`create policy church_rows on group_meeting_rows using (${rule}) with check (${rule})`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, events] of [
    ['group_meetings', ['insert', 'update']],
    ['group_attendance', ['insert', 'update', 'delete']],
    ['groups', ['update']],
  ] as const) {
    for (const event of events) await sql.raw(`drop trigger ${table}_meeting_rows_${event} on ${table}`).execute(db);
    await sql.raw(`drop function ${table}_meeting_rows()`).execute(db);
  }
  await sql`drop function refresh_group_meeting_rows(integer[])`.execute(db);
  await sql`drop table group_meeting_rows`.execute(db);
}
