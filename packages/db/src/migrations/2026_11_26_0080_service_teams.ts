import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Issue 31 §5: the scheduling matrix filters by team. A team is a position category (Worship,
// Tech): each church's categories get an id here, kept by a trigger whenever a position's category
// is written, so every path that writes positions keeps its team without knowing about it.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table service_teams (
      id integer generated always as identity primary key,
      user_id integer not null references users(id) on delete cascade,
      name text not null check (char_length(name) between 1 and 100),
      created_at timestamptz not null default now(),
      unique (user_id, name)
    )`.execute(db);
  await sql`alter table team_positions add column team_id integer references service_teams(id) on delete set null`.execute(
    db,
  );
  await sql`create index team_positions_team_idx on team_positions (team_id) where team_id is not null`.execute(db);
  await sql`
    insert into service_teams (user_id, name)
    select distinct user_id, btrim(category) from team_positions
    where category is not null and btrim(category) <> ''`.execute(db);
  await sql`
    update team_positions p set team_id = t.id
    from service_teams t where t.user_id = p.user_id and t.name = btrim(p.category)`.execute(db);
  await sql`
    create function team_positions_team() returns trigger language plpgsql as $$
    begin
      if new.category is null or btrim(new.category) = '' then
        new.team_id := null;
        return new;
      end if;
      insert into service_teams (user_id, name) values (new.user_id, left(btrim(new.category), 100))
        on conflict (user_id, name) do nothing;
      select id into new.team_id from service_teams
        where user_id = new.user_id and name = left(btrim(new.category), 100);
      return new;
    end $$`.execute(db);
  await sql`
    create trigger team_positions_team before insert or update of category on team_positions
    for each row execute function team_positions_team()`.execute(db);
  // Row-level security like every church table (0048).
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  await sql.raw(`alter table service_teams enable row level security`).execute(db);
  await sql.raw(`create policy church_rows on service_teams using (${rule}) with check (${rule})`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger team_positions_team on team_positions`.execute(db);
  await sql`drop function team_positions_team()`.execute(db);
  await sql`alter table team_positions drop column team_id`.execute(db);
  await sql`drop table service_teams`.execute(db);
}
