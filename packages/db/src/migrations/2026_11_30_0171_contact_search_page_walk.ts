import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// The contacts list's search at 100,000 contacts: a broad fragment ('smi', 10,000 matches) cost
// about three times what counting its matches costs. `contact_search_page` (migration 0099) kept
// every match (id and both sort keys) in a materialized set, counted it, and sorted it for the page:
// writing and reading 10,000 rows of that set was more than half of the search, and the page's
// top-N sort most of the rest (`pnpm bench:growth`, docs/benchmarks-history.md).
//
// Now the total and the first match's last name come from one pass over the matches with nothing
// kept (`count(*)`, `min(last_key)`). The page is then read in the list's own order: the church's
// contacts by name (`contacts_user_name_idx`: church, lower(last_name), lower(first_name), id),
// from the first match's last name on, each checked against its search text by id, stopping once
// the page is full. A broad search's matches sit close together in name order (a fragment of a
// name, a domain, an area code), so that walk reads about a page's worth of contacts. Where they do
// not, the walk stops after an eighth of the total's worth of contacts (each step costs about four
// matches in a sort) and the page comes from a top-N sort of the matches as before; so does a small
// total (fewer than eight matches for each row wanted), whose sort is cheap. Same rows, same order,
// same exact total in every case; a page past the end is still one row with no id and the total.
//
// Both statements run in the one function call, which sees one snapshot (a stable function), so the
// total and the page agree. Who may be answered is unchanged (migration 0095's rule); the walk
// names the church in its query (`c.user_id = $1`) like the search does.

// The policy's own rule (migrations 0095 and 0099, unchanged).
const MAY_READ = `
  if church is null or patterns is null or cardinality(patterns) = 0 then
    return;
  end if;
  if not (
    coalesce(current_setting('app.rls_bypass', true), '') = 'on'
    or church = nullif(current_setting('app.tenant_id', true), '')::int
    or exists (select 1 from pg_roles r where r.rolname = invoker and (r.rolsuper or r.rolbypassrls))
    or pg_has_role(invoker, (select c.relowner from pg_class c where c.oid = 'public.contacts'::regclass), 'USAGE')
  ) then
    return;
  end if;
  for i in 1 .. least(cardinality(patterns), 5) loop
    cond := cond || format(' and s.doc like $2[%s]', i);
  end loop;`;

const SIGNATURE = `contact_search_page(church int, patterns text[], page_size int, page_offset int)
returns table (id int, total int)
language plpgsql stable security definer rows 25
set search_path = pg_catalog, public, pg_temp
set effective_io_concurrency = 0`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `create or replace function ${SIGNATURE}
as $fn$
declare
  invoker name := case when current_setting('role') = 'none' then session_user else current_setting('role')::name end;
  cond text := '';
  n int;
  first_last text;
  take int := greatest(page_size, 0);
  skip int := greatest(page_offset, 0);
  ids int[];
begin
${MAY_READ}
  execute 'select count(*)::int, min(s.last_key) from public.contact_search s where s.user_id = $1' || cond
    into n, first_last using church, patterns;
  if skip >= n or take = 0 then
    return query select null::int, n;
    return;
  end if;
  -- The walk in name order, given at most n / 8 contacts to fill the page.
  if skip + take <= n / 8 then
    execute 'select array_agg(w.id order by w.l, w.f, w.id) from (
        select w.id, w.l, w.f from (
          select c.id, lower(c.last_name) as l, lower(c.first_name) as f from public.contacts c
          where c.user_id = $1 and lower(c.last_name) >= $5
          order by lower(c.last_name), lower(c.first_name), c.id limit $6) w
        join public.contact_search s on s.contact_id = w.id where true' || cond || '
        order by w.l, w.f, w.id limit $3 offset $4) w'
      into ids using church, patterns, take, skip, first_last, n / 8;
    if cardinality(ids) >= least(take, n - skip) then
      return query select u.id, n from unnest(ids) with ordinality u(id, o) order by u.o;
      return;
    end if;
  end if;
  return query execute 'select s.contact_id, $5 from public.contact_search s where s.user_id = $1' || cond || '
    order by s.last_key, s.first_key, s.contact_id limit $3 offset $4'
    using church, patterns, take, skip, n;
end
$fn$`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // contact_search_page as migration 0099 made it.
  await sql
    .raw(
      `create or replace function ${SIGNATURE}
as $fn$
declare
  invoker name := case when current_setting('role') = 'none' then session_user else current_setting('role')::name end;
  cond text := '';
begin
${MAY_READ}
  return query execute 'with m as materialized (select s.contact_id, s.last_key, s.first_key from public.contact_search s where s.user_id = $1' || cond || ')
    select p.contact_id, t.n from (select count(*)::int as n from m) t
    left join lateral (select m.contact_id, m.last_key, m.first_key from m
                       order by m.last_key, m.first_key, m.contact_id limit $3 offset $4) p on true
    order by p.last_key, p.first_key, p.contact_id'
    using church, patterns, greatest(page_size, 0), greatest(page_offset, 0);
end
$fn$`,
    )
    .execute(db);
}
